package org.vectorjce.fs;

import java.io.IOException;

/** No driver recognises what the device (or the partition) holds; the message says what was looked for. */
public class UnknownFileSystemException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnknownFileSystemException(String message) {
        super(message);
    }
}
