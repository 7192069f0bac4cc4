package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;

import org.vectorjce.volumes.bitlk.BitlkFilesAccess;

/** An image of cryptsetup's BitLocker tarball as a file in {@code dir}. */
final class BitlkFiles {
    private BitlkFiles() {
    }

    static Path write(String name, Path dir) throws IOException {
        return BitlkFilesAccess.write(name, dir);
    }
}
