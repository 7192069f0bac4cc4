package org.vectorjce.volumes;

/**
 * The header breaks its specification or does not fit the image: an offset outside the image,
 * areas that overlap, a bad checksum on every copy, JSON that is not JSON, ... The message names
 * the field.
 */
public class CorruptHeaderException extends VolumeException {
    private static final long serialVersionUID = 1L;

    public CorruptHeaderException(String message) {
        super(message);
    }

    public CorruptHeaderException(String message, Throwable cause) {
        super(message, cause);
    }
}
