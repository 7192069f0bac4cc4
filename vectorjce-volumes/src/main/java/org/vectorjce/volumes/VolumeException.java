package org.vectorjce.volumes;

/**
 * A volume could not be opened or read: the base of {@link WrongPassphraseException},
 * {@link CorruptHeaderException} and {@link UnsupportedVolumeException}; an I/O failure of the
 * image itself is an {@code IOException} instead. Messages name the field or feature at fault and
 * never contain a passphrase or key.
 */
public class VolumeException extends Exception {
    private static final long serialVersionUID = 1L;

    public VolumeException(String message) {
        super(message);
    }

    public VolumeException(String message, Throwable cause) {
        super(message, cause);
    }
}
