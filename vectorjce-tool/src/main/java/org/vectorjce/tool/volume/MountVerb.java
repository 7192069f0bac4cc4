package org.vectorjce.tool.volume;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume mount}: the command line of {@link MountCommand}, which shows the plaintext as a file of a FUSE mount. */
@Command(name = "mount", sortOptions = false, description = {"Shows the plaintext of IMAGE as the one file "
        + "DIR/NAME (NAME: IMAGE's file name) of a FUSE mount, until fusermount3 -u DIR, SIGINT or SIGTERM: "
        + "read-write for LUKS and TrueCrypt/VeraCrypt (unless --read-only), read-only for BitLocker and "
        + "FileVault 2. It prints the file's "
        + "path on standard output. The volume is unlocked as test unlocks it.",
        "", "Needs Java 22 or newer (bin/volume finds a JDK 25) and libfuse3 with fusermount3 (Debian, "
        + "Ubuntu: apt-get install fuse3); every other verb runs on Java 17. The image is locked as serve "
        + "locks it."})
final class MountVerb extends Verb {
    @Mixin
    UnlockOptions unlock;
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
    Path image;
    @Parameters(index = "1", paramLabel = "DIR", description = "An existing folder to mount on.")
    Path dir;
    @Option(names = {"--read-only", "-r"}, description = "Refuse writes even where the format takes them.")
    boolean readOnly;
    @Option(names = "--foreground", description = "Stay in this process until unmounted: the default and "
            + "the only way.")
    boolean foreground;

    MountVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        return new MountCommand(session.out, session.err, session.signals).mount(image, dir, readOnly,
                write -> FormatCommands.unlock(session, unlock, "mount", image, write));
    }
}
