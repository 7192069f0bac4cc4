package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.file.Path;

/** cryptsetup's TrueCrypt/VeraCrypt test images, for tests in other packages. */
public final class TcryptFilesAccess {
    /** The password of the images without a PIM or a long password. */
    public static final String PASSWORD = TcryptImages.PASSWORD;

    private TcryptFilesAccess() {
    }

    /** The folder of the unpacked images (shared by the JVM, read-only by convention: copy to write). */
    public static Path images() throws IOException {
        return TcryptImages.shared();
    }
}
