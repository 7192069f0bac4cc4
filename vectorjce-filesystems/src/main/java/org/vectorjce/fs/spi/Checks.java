package org.vectorjce.fs.spi;

import org.vectorjce.fs.CorruptFileSystemException;

/** Bounds every driver checks a field read from the disk against before it sizes or loops by it. */
public final class Checks {
    private Checks() {
    }

    /**
     * {@code n} as an array length, when it is within {@code [0, max]}; else a
     * {@link CorruptFileSystemException} naming {@code what} and its offset.
     */
    public static int arraySize(long n, int max, String what, long offset) throws CorruptFileSystemException {
        if (n < 0 || n > max) {
            throw new CorruptFileSystemException(what + " of " + n + " bytes is out of range (0 to " + max + ")",
                    offset);
        }
        return (int) n;
    }

    /** {@code [offset, offset + length)} lies within a device of {@code size} bytes; else the exception. */
    public static void within(long offset, long length, long size, String what) throws CorruptFileSystemException {
        if (offset < 0 || length < 0 || offset > size - length) {
            throw new CorruptFileSystemException(what + ": " + length + " bytes at " + offset
                    + " pass the end of the " + size + "-byte device", offset);
        }
    }
}
