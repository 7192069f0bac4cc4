package org.vectorjce.tool.volume;

/** A command line the {@code volume} command cannot run: its message is the one line it prints. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /** A usage error saying {@code message}. */
    public UsageException(String message) {
        super(message);
    }
}
