package org.vectorjce.volumes;

/**
 * The volume is well formed but uses something this library does not do: a cipher other than AES
 * or Twofish, an IV generator or hash it lacks, a mandatory requirement it does not know, a
 * segment or key slot type other than the ones LUKS2 defines for plain crypt volumes. The
 * message names the feature. Like cryptsetup, the library never guesses.
 */
public class UnsupportedVolumeException extends VolumeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedVolumeException(String message) {
        super(message);
    }
}
