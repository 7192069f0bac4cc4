package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.file.Path;

import org.vectorjce.volumes.SparseImages;

/** Writes cryptsetup's FileVault 2 image {@code small} as a sparse file, for tests in other packages. */
public final class Fvault2FilesAccess {
    public static final String PASSWORD = Fvault2Images.PASSWORD, SHA256 = Fvault2Images.SHA256;

    private Fvault2FilesAccess() {
    }

    public static Path small(Path dir) throws IOException {
        return Fvault2Images.small().write(dir);
    }

    /** The image {@code small} in memory (a copy the caller may change). */
    public static SparseImages.Image smallImage() throws IOException {
        return Fvault2Images.small().copy();
    }

    /** The volume key's 32 bytes. */
    public static byte[] volumeKey() {
        return Fvault2Images.volumeKey();
    }
}
