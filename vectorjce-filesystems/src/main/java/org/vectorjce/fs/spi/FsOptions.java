package org.vectorjce.fs.spi;

import java.nio.charset.Charset;
import java.util.Objects;

/**
 * What a caller may set about how a filesystem is read.
 *
 * @param codePage the code page of FAT's 8.3 names (default {@code IBM437}, as Linux's vfat; mtools defaults to 850)
 */
public record FsOptions(Charset codePage) {
    public FsOptions {
        Objects.requireNonNull(codePage, "codePage");
    }

    public static FsOptions defaults() {
        return new FsOptions(Charset.forName("IBM437"));
    }
}
