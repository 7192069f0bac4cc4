package org.vectorjce.tool.volume;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code volume mount}: the command line of {@link MountCommand}, which shows the plaintext as a
 * file of a FUSE mount, or with {@code --files} the filesystem inside as the mount's tree.
 */
@Command(name = "mount", sortOptions = false, description = {"Shows the plaintext of IMAGE as the one file "
        + "DIR/NAME (NAME: IMAGE's file name) of a FUSE mount, or with --files the files of the filesystem inside "
        + "IMAGE as the read-only tree of DIR, until fusermount3 -u DIR, SIGINT or SIGTERM. The plaintext is "
        + "read-write for LUKS and TrueCrypt/VeraCrypt (unless --read-only), read-only for BitLocker and "
        + "FileVault 2. It prints the file's path (with --files: DIR) on standard output. The volume is unlocked "
        + "as test unlocks it; with --files IMAGE may be a plain disk image too, and the filesystem is chosen "
        + "as ls chooses it.",
        "", "Needs Java 22 or newer (bin/volume finds a JDK 25) and libfuse3 with fusermount3 (Debian, "
        + "Ubuntu: apt-get install fuse3); every other verb runs on Java 17. The image is locked as serve "
        + "locks it."})
final class MountVerb extends FilesVerbs.FilesVerb {
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume (with --files: or disk image).")
    Path image;
    @Parameters(index = "1", paramLabel = "DIR", description = "An existing folder to mount on.")
    Path dir;
    @Option(names = "--files", description = "Mount the files of IMAGE's filesystem (read-only) instead of "
            + "its plaintext; --partition and --code-page choose and read that filesystem.")
    boolean files;
    @Option(names = {"--read-only", "-r"}, description = "Refuse writes even where the format takes them "
            + "(--files is always read-only).")
    boolean readOnly;
    @Option(names = "--foreground", description = "Stay in this process until unmounted: the default and "
            + "the only way.")
    boolean foreground;

    MountVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        MountCommand m = new MountCommand(session.out, session.err, session.signals);
        if (files) {
            return m.mountFiles(image, dir, env(), () -> open("mount", image));
        }
        if (partition != null || codePage != null) {
            throw new UsageException("--partition and --code-page choose the filesystem of mount --files: without"
                    + " --files, mount shows the whole plaintext");
        }
        return m.mount(image, dir, readOnly, write -> FormatCommands.unlock(session, unlock, "mount", image, write));
    }
}
