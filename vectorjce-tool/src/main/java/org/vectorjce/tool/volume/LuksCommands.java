package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * {@link FormatCommands} for LUKS1 and LUKS2, named as cryptsetup's: {@code info} is
 * {@code luksDump}, {@code test} is {@code open --test-passphrase}. The passphrase is the whole
 * {@code --key-file} ({@code -}: all of standard input), else the first line of standard input
 * when it is not a terminal, else a prompt without echo. {@link #open} is also how the LUKS-only
 * verbs ({@code encrypt}) unlock.
 */
final class LuksCommands implements FormatCommands {
    private final Session s;
    private final UnlockOptions o;
    /** {@code luks}, {@code luks1} or {@code luks2}. */
    private final String type;
    /** Whether {@code --type} was left out (then a missing magic hints at TrueCrypt/VeraCrypt). */
    private final boolean typeFound;

    private LuksCommands(Session s, UnlockOptions o, String type, boolean typeFound) {
        this.s = s;
        this.o = o;
        this.type = type;
        this.typeFound = typeFound;
    }

    /** The commands of {@code --type type} (or of no {@code --type}, {@code typeFound}), after refusing what LUKS does not take. */
    static LuksCommands of(Session s, UnlockOptions o, String type, boolean typeFound) throws UsageException {
        if (o.tcrypt != null) {
            throw new UsageException("--hash, --cipher, --tcrypt-* and --veracrypt-* need --type tcrypt"
                    + " (a LUKS header names its own cipher and hash)");
        }
        if (o.keyFiles.size() > 1) {
            throw new UsageException("--key-file given " + o.keyFiles.size() + " times: a LUKS volume takes one key file");
        }
        return new LuksCommands(s, o, type, typeFound);
    }

    /**
     * The checks of the LUKS {@code verb} before it opens the image: {@code --threads} only for
     * decrypt, which reads it, and {@code --type luks1} or {@code luks2} only on an image whose
     * header has that version.
     */
    private void check(String verb, Path image) throws IOException, VolumeException, UsageException {
        if (o.threads != null && !verb.equals("decrypt")) {
            throw new UsageException("--threads is read by decrypt, encrypt and --type tcrypt: " + verb
                    + " on a LUKS volume runs no workers");
        }
        if (type.equals("luks1") || type.equals("luks2")) {
            Checks.image(image);
            int version = builder(image, o.header).info().version();
            if (!type.equals("luks" + version)) {
                throw new UsageException("--type " + type + " does not match " + (o.header != null ? o.header : image)
                        + ", a LUKS" + version + " header: give --type luks" + version + ", or no --type");
            }
        }
    }

    @Override
    public void checkInfo(Path image, boolean dumpKey) throws IOException, VolumeException, UsageException {
        check("info", image);
        Checks.image(image);
    }

    @Override
    public void printHeader(Path image) throws IOException, VolumeException {
        try {
            s.out.print(LuksInfo.luksDump(image, o.header, o.keySlot));
        } catch (CorruptHeaderException e) {
            throw failure(e, image);
        }
    }

    @Override
    public Volume unlock(String verb, Path image, boolean write) throws IOException, VolumeException, UsageException {
        check(verb, image);
        try {
            return open(s, image, o.header, o.keyFile(), o.keySlot, write);
        } catch (CorruptHeaderException e) {
            throw failure(e, image);
        }
    }

    @Override
    public String unlocked(Volume v) {
        // as cryptsetup -v: silent on success unless asked
        return v instanceof LuksVolume l && l.keySlot().isPresent() ? "Key slot " + l.keySlot().getAsInt() + " unlocked."
                : null;
    }

    @Override
    public int decryptThreads(Integer threads) {
        return threads != null ? threads : Checks.processors();
    }

    /**
     * {@code e}, or, when --type was left out and the image has no LUKS magic, {@code e} with the
     * hint that it may be a TrueCrypt/VeraCrypt volume (which has no magic to find it by).
     */
    private VolumeException failure(CorruptHeaderException e, Path image) {
        String noMagic = (o.header != null ? o.header : image) + " is not a LUKS volume (no LUKS magic)";
        if (typeFound && noMagic.equals(e.getMessage())) {
            return new CorruptHeaderException(noMagic + "; it may be a TrueCrypt/VeraCrypt volume, which has"
                    + " none: try --type tcrypt", e);
        }
        return e;
    }

    /** The library's builder of the LUKS volume in {@code image}, its header in {@code header} when detached. */
    static LuksVolume.Builder builder(Path image, Path header) {
        LuksVolume.Builder b = LuksVolume.at(image);
        if (header != null) {
            b.header(header);
        }
        return b;
    }

    /** Opens the LUKS volume in {@code image} with the secret the options name; for writing only when {@code write}. */
    static LuksVolume open(Session s, Path image, Path header, Path keyFile, Integer keySlot, boolean write)
            throws IOException, VolumeException, UsageException {
        Checks.image(image);
        LuksVolume.Builder b = builder(image, header);
        if (write) {
            b.readWrite();
        }
        if (keySlot != null) {
            b.keySlot(keySlot);
        }
        if (keyFile != null && keyFile.toString().equals("-")) {
            // cryptsetup's --key-file -: all of standard input, as bytes
            byte[] p = s.stdin.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
            try {
                if (p.length > LuksVolume.MAX_KEY_FILE) {
                    throw new VolumeException("Standard input holds more than " + LuksVolume.MAX_KEY_FILE
                            + " bytes of key file");
                }
                b.passphrase(p);
            } finally {
                Arrays.fill(p, (byte) 0);
            }
        } else if (keyFile != null) {
            Checks.keyFile(keyFile, "Key file");
            b.keyFile(keyFile);
        } else {
            byte[] p = s.passphrase(LuksVolume.MAX_KEY_FILE);
            try {
                b.passphrase(p);
            } finally {
                Arrays.fill(p, (byte) 0);
            }
        }
        return b.open();
    }
}
