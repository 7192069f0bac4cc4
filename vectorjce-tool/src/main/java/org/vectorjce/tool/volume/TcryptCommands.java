package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.tcrypt.TcryptVolume;

/**
 * {@link FormatCommands} for {@code --type tcrypt} (TrueCrypt and VeraCrypt), with cryptsetup's
 * option names ({@link TcryptOptions}): {@code info} is {@code tcryptDump}, which needs the
 * password (the header is encrypted), {@code test} is {@code tcryptOpen --test-passphrase}.
 *
 * <p>The password is the first line of standard input when it is not a terminal, else a prompt
 * without echo; {@code --key-file} (repeatable, {@code -d}) adds a TrueCrypt keyfile, as in
 * cryptsetup's {@code tcryptOpen}, or a folder's keyfiles, as in VeraCrypt (its regular files
 * whose names do not start with a dot), and does not replace the password. {@code --threads} is
 * how many header trials run at once (default the processor count).
 */
final class TcryptCommands implements FormatCommands {
    private static final int MAX_PASSWORD_LINE = 4096;

    private final Session s;
    private final UnlockOptions o;

    private TcryptCommands(Session s, UnlockOptions o) {
        this.s = s;
        this.o = o;
    }

    /** The commands of {@code --type tcrypt}, after refusing what it does not take. */
    static TcryptCommands of(Session s, UnlockOptions o) throws UsageException {
        if (o.keySlot != null) {
            throw new UsageException("--key-slot is LUKS's: a TrueCrypt/VeraCrypt volume has no key slots");
        }
        return new TcryptCommands(s, o);
    }

    /** The options' own checks, and the image's, before any secret is read. */
    @Override
    public void checkInfo(Path image, boolean dumpKey) throws IOException, UsageException {
        TcryptOptions t = o.tcrypt;
        if (t != null && t.hidden && t.system) {
            throw new UsageException("--tcrypt-hidden and --tcrypt-system cannot be combined");
        }
        if (t != null && t.pim != null && t.pim <= 0) {
            throw new UsageException("Invalid PIM value: " + t.pim + " (1 or more)");
        }
        if (o.threads != null && o.threads < 1) {
            throw new UsageException("--threads " + o.threads + ": 1 or more");
        }
        Checks.image(image);
    }

    @Override
    public void printHeader(Path image) throws IOException, VolumeException, UsageException {
        try (Volume v = open(image, false)) {
            s.out.print(v.info().dump(device(image)));
        }
    }

    @Override
    public Volume unlock(String verb, Path image, boolean write) throws IOException, VolumeException, UsageException {
        return open(image, write);
    }

    /** tcryptDump names the image by its file name. */
    @Override
    public String device(Path image) {
        return image.getFileName().toString();
    }

    /** Unlocks {@code image} with the options and the password from standard input or a prompt; for writing when {@code write}. */
    private TcryptVolume open(Path image, boolean write) throws IOException, VolumeException, UsageException {
        checkInfo(image, false);
        TcryptOptions t = o.tcrypt != null ? o.tcrypt : new TcryptOptions();
        TcryptVolume.Builder b = TcryptVolume.at(image).hash(t.hash).cipher(t.cipher).pim(t.pim == null ? 0 : t.pim)
                .hidden(t.hidden).system(t.system).backupHeader(t.backup).veracrypt(!t.disableVeracrypt);
        if (o.header != null) {
            b.header(o.header);
        }
        if (o.threads != null) {
            b.threads(o.threads);
        }
        if (write) {
            b.readWrite();
        }
        for (Path k : o.keyFiles) {
            b.keyFile(k);
        }
        byte[] pw = s.passphrase(MAX_PASSWORD_LINE);
        try {
            b.passphrase(pw);
        } finally {
            Arrays.fill(pw, (byte) 0);
        }
        return b.open();
    }
}
