package org.vectorjce.tool.volume;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksVolume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code volume format IMAGE}: a LUKS2 (default, as cryptsetup 2.6) or LUKS1 volume into the
 * existing file IMAGE (as {@code cryptsetup luksFormat}), after a confirmation unless {@code -q};
 * the passphrase as for the other verbs. Everything is checked before anything is written.
 */
@Command(name = "format", aliases = "luksFormat", sortOptions = false, description = {"A new LUKS2 (default, laid "
        + "out as cryptsetup 2.6's) or LUKS1 volume in the existing file IMAGE, as cryptsetup luksFormat, with "
        + "the passphrase in key slot 0. Asks YES on a terminal unless -q; everything is checked before "
        + "anything is written."})
final class FormatVerb extends Verb {
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The file to format (it must exist and hold "
            + "the header and at least one sector).")
    Path image;
    @Option(names = {"--type", "-M"}, paramLabel = "TYPE", description = "luks2 (default) or luks1.")
    String type = "luks2";
    @Option(names = {"--cipher", "-c"}, paramLabel = "CIPHER", description = "The payload's cipher in dm-crypt's "
            + "syntax (default aes-xts-plain64).")
    String cipher;
    @Option(names = {"--key-size", "-s"}, paramLabel = "BITS", description = "The volume key's size (default 512 "
            + "for XTS, else 256).")
    Integer keySize;
    @Option(names = "--sector-size", paramLabel = "BYTES", description = "LUKS2 payload sector size, 512 to 4096 "
            + "(default 4096 when the payload is a multiple of it, else 512).")
    Long sectorSize;
    @Mixin
    KdfOptions kdf;
    @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The passphrase is this file's "
            + "bytes (-: all of standard input).")
    Path keyFile;
    @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation.")
    boolean quiet;

    FormatVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        Checks.range(keySize, "--key-size", 8, 4096);
        Checks.range(sectorSize, "--sector-size", 512, 4096);
        kdf.check();
        KeySlotOptions slot = kdf.options();
        if (!type.equals("luks1") && !type.equals("luks2")) {
            throw new UsageException("--type " + type + ": luks1 or luks2 can be formatted");
        }
        Checks.image(image);
        if (!Files.isRegularFile(image)) {
            throw new NoSuchFileException(image.toString());
        }
        Integer bits = keySize;
        if (bits == null && cipher != null && !cipher.matches("[^-]+-xts(-.*)?")) {
            bits = 256; // cryptsetup's default: 256 bits, doubled for XTS's two keys
        }
        Luks1Format f1 = null;
        Luks2Format f2 = null;
        if (type.equals("luks1")) {
            f1 = luks1(bits);
        } else {
            f2 = Luks2Format.luks2().keySlot(slot);
            if (cipher != null) {
                f2.cipher(cipher);
            }
            if (bits != null) {
                f2.keySize(bits);
            }
            if (sectorSize != null) {
                f2.sectorSize(sectorSize.intValue());
            }
        }
        if (!quiet) {
            session.confirm("WARNING!\n========\nThis will overwrite data on " + image + " irrevocably.\n\n",
                    "format overwrites " + image + ": it needs confirmation on a terminal, or -q");
        }
        byte[] p = keyFile != null ? session.keyFileBytes(keyFile) : session.passphrase(LuksVolume.MAX_KEY_FILE);
        try {
            if (p.length == 0) {
                throw new VolumeException("Nothing to read on input: the passphrase is empty");
            }
            session.benchmarking(kdf.calibrates(), kdf.iterTime);
            if (f1 != null) {
                f1.format(image, p);
            } else {
                f2.format(image, p);
            }
        } finally {
            Arrays.fill(p, (byte) 0);
        }
        return Exits.OK;
    }

    /** LUKS1's format, after refusing what LUKS1 does not have (Argon2, sectors other than 512 bytes). */
    private Luks1Format luks1(Integer bits) throws UsageException, VolumeException {
        if (kdf.argon2()) {
            throw new UsageException("LUKS1 key slots use pbkdf2 only (--pbkdf, --pbkdf-memory, --pbkdf-parallel are LUKS2's)");
        }
        if (sectorSize != null && sectorSize != 512) {
            throw new UsageException("--sector-size " + sectorSize + ": LUKS1 has 512-byte sectors only");
        }
        if (kdf.forceIterations != null && kdf.forceIterations < 1000) {
            throw new UsageException("--pbkdf-force-iterations " + kdf.forceIterations + ": pbkdf2 needs 1000 or more");
        }
        Luks1Format f1 = Luks1Format.luks1();
        if (cipher != null) {
            f1.cipher(cipher);
        }
        if (bits != null) {
            f1.keySize(bits);
        }
        if (kdf.hash != null) {
            f1.hash(kdf.hash);
        }
        if (kdf.iterTime != null) {
            f1.iterTime(kdf.iterTime);
        }
        if (kdf.forceIterations != null) {
            f1.iterations(kdf.forceIterations);
        }
        return f1;
    }
}
