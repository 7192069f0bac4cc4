package org.vectorjce.volumes.bitlk;

import java.io.IOException;
import java.nio.file.Path;

/** Writes an image of cryptsetup's BitLocker tarball as a sparse file, for tests in other packages. */
public final class BitlkFilesAccess {
    private BitlkFilesAccess() {
    }

    public static Path write(String name, Path dir) throws IOException {
        return BitlkImages.images().get(name).write(dir);
    }
}
