package org.vectorjce.tool.volume;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.vectorjce.volumes.Volume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The verbs that read the files inside a volume or a plain disk image: {@code fs}, {@code ls},
 * {@code cat} and {@code get}. Each takes the {@link UnlockOptions} and unlocks through
 * {@link FormatCommands} as {@code test} does; the work is {@link FilesCommand}'s
 * and {@link DiskFiles}'.
 */
final class FilesVerbs {
    private FilesVerbs() {
    }

    /**
     * What {@code fs}, {@code ls}, {@code cat} and {@code get} share: the image opened read-only as
     * {@code test} unlocks it, or, with no LUKS, BitLocker or FileVault 2 signature and no
     * {@code --type} (or {@code --type raw}), read as a plain disk without asking for a secret.
     */
    abstract static class FilesVerb extends Verb {
        FilesVerb(Session session) {
            super(session);
        }

        @Mixin
        UnlockOptions unlock;
        @Option(names = {"--partition", "-p"}, paramLabel = "N|VG/LV", description = "The partition or LVM2 logical "
                + "volume to read: its number in volume fs's list, or VG/LV (default: the only one holding a "
                + "filesystem).")
        String partition;
        @Option(names = "--code-page", paramLabel = "CHARSET", description = "The code page of FAT's short (8.3) "
                + "names (default IBM437, as Linux's vfat; mtools uses IBM850).")
        String codePage;

        /** {@code image}'s device: its plaintext, or the image itself when it is a plain disk. */
        DiskFiles.Opened open(String verb, Path image) throws Exception {
            Checks.image(image);
            UnlockOptions u = unlock;
            if ("raw".equals(u.type) || u.type == null && org.vectorjce.volumes.Volumes.detect(image) == null) {
                if (!u.keyFiles.isEmpty() || u.header != null || u.keySlot != null || u.tcrypt != null
                        || u.volumeKey != null) {
                    throw new UsageException(image + " is read as a plain disk (" + (u.type == null ? "no LUKS, BitLocker"
                            + " or FileVault 2 signature" : "--type raw") + "): it takes no secret or unlock option;"
                            + " a TrueCrypt/VeraCrypt volume needs --type tcrypt");
                }
                return new DiskFiles.Opened(null, org.vectorjce.device.Device.open(image, false));
            }
            Volume v = FormatCommands.unlock(session, unlock, verb, image, false);
            try {
                return new DiskFiles.Opened(v, v.device());
            } catch (Exception e) {
                v.close();
                throw e;
            }
        }

        java.util.Map<String, Object> env() throws UsageException {
            java.util.Map<String, Object> env = new java.util.HashMap<>();
            if (partition != null) {
                if (partition.indexOf('/') < 0) {
                    try {
                        Checks.range(Integer.valueOf(partition.trim()), "--partition", 1, Integer.MAX_VALUE);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--partition " + partition + ": a number from volume fs's list,"
                                + " or VG/LV");
                    }
                }
                env.put("partition", partition.trim());
            }
            if (codePage != null) {
                try {
                    env.put("codePage", java.nio.charset.Charset.forName(codePage));
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--code-page " + codePage + ": no such charset in this Java (e.g. IBM437,"
                            + " IBM850, windows-1252, Shift_JIS)");
                }
            }
            return env;
        }

        FilesCommand files() {
            return new FilesCommand(session.out, session.err, session::onTerminal);
        }
    }

    @Command(name = "fs", sortOptions = false, description = {"The partitions of IMAGE (MBR, GPT, or none) and the "
            + "filesystem in each (FAT12, FAT16, FAT32, exFAT, NTFS), as mmls and fsstat show them: number, offset, "
            + "size, type, label, serial, cluster size, used space. IMAGE is a volume (unlocked as test unlocks "
            + "it) or a plain disk image."})
    static final class Fs extends FilesVerb {
        Fs(Session session) {
            super(session);
        }

        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume or disk image.")
        Path image;
        @Option(names = "--json", description = "One JSON object per partition, for scripts.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            try (DiskFiles.Opened o = open("fs", image)) {
                return DiskFiles.fs(o.device(), json, session.out);
            }
        }
    }

    @Command(name = "ls", sortOptions = false, description = {"Lists PATH (default /) of the filesystem in IMAGE, "
            + "in the filesystem's own order. IMAGE is a volume (unlocked as test unlocks it) or a plain disk image."})
    static final class Ls extends FilesVerb {
        Ls(Session session) {
            super(session);
        }

        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume or disk image.")
        Path image;
        @Parameters(index = "1", arity = "0..1", paramLabel = "PATH", description = "A folder or file (default /).")
        String path = "/";
        @Option(names = "-l", description = "Type, DOS attributes (rhsa), size, modification time (UTC), name.")
        boolean longFormat;
        @Option(names = {"-R", "--recursive"}, description = "The folders' content too, depth first.")
        boolean recursive;
        @Option(names = "--json", description = "One JSON object per entry (path, type, size, mtime, ctime, "
                + "attributes, target), for scripts.")
        boolean json;
        @Option(names = "--streams", description = "Each file's named streams too (NTFS), as FILE:STREAM.")
        boolean streams;

        @Override
        public Integer call() throws Exception {
            try (DiskFiles.Opened o = open("ls", image); java.nio.file.FileSystem fs = DiskFiles.fileSystem(o, env())) {
                return files().ls(fs, path, new FilesCommand.LsOptions(longFormat, recursive, json, streams));
            }
        }
    }

    @Command(name = "cat", sortOptions = false, description = {"Writes the bytes of the file PATH in IMAGE's "
            + "filesystem to standard output (PATH:STREAM reads an NTFS named stream)."})
    static final class Cat extends FilesVerb {
        Cat(Session session) {
            super(session);
        }

        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume or disk image.")
        Path image;
        @Parameters(index = "1", paramLabel = "PATH", description = "The file.")
        String path;

        @Override
        public Integer call() throws Exception {
            try (DiskFiles.Opened o = open("cat", image); java.nio.file.FileSystem fs = DiskFiles.fileSystem(o, env())) {
                return files().cat(fs, path, session.out);
            }
        }
    }

    @Command(name = "get", sortOptions = false, description = {"Copies the files and folders PATH... of IMAGE's "
            + "filesystem into the folder DEST (or to DEST, for one PATH that does not exist there yet), keeping "
            + "modification times; a progress line on a terminal. Existing files are kept unless --force; an entry "
            + "whose name cannot be a file name here (., .., holding / \\ or NUL) is skipped, named on standard "
            + "error, and the exit status is 1."})
    static final class Get extends FilesVerb {
        Get(Session session) {
            super(session);
        }

        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume or disk image.")
        Path image;
        @Parameters(index = "1..*", arity = "2..*", paramLabel = "PATH... DEST", description = "What to copy, then "
                + "where.")
        List<String> rest = new ArrayList<>();
        @Option(names = {"--force", "-f"}, description = "Replace files that exist in DEST.")
        boolean force;

        @Override
        public Integer call() throws Exception {
            Path dest = Path.of(rest.get(rest.size() - 1));
            try (DiskFiles.Opened o = open("get", image); java.nio.file.FileSystem fs = DiskFiles.fileSystem(o, env())) {
                return files().get(fs, rest.subList(0, rest.size() - 1), dest, force);
            }
        }
    }
}
