package org.vectorjce.volumes;

/**
 * No key slot opened with the passphrase, key file or volume key given (cryptsetup's exit code
 * 2: "No key available with this passphrase").
 */
public class WrongPassphraseException extends VolumeException {
    private static final long serialVersionUID = 1L;

    public WrongPassphraseException(String message) {
        super(message);
    }
}
