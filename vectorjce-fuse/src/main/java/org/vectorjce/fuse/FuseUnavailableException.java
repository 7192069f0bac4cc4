package org.vectorjce.fuse;

import java.io.IOException;

/**
 * FUSE cannot be used here: libfuse3, {@code /dev/fuse} or {@code fusermount3} is missing, or jfuse
 * has no binding for this platform. The message is one line that says what is missing and what to
 * install (Debian and Ubuntu: the package {@code fuse3}); {@link VolumeMount#problem()} gives the
 * same line without mounting.
 */
public final class FuseUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    FuseUnavailableException(String message) {
        super(message);
    }

    FuseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
