package org.vectorjce.fs.spi;

/** What a {@link Node} is. */
public enum Kind {
    FILE, DIRECTORY, SYMLINK, OTHER
}
