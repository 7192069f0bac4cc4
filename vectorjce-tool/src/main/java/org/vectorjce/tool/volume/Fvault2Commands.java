package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.fvault2.Fvault2Info;
import org.vectorjce.volumes.fvault2.Fvault2Volume;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * {@link FormatCommands} for {@code --type fvault2} (FileVault 2 on Core Storage), with
 * cryptsetup's option names: {@code info} is {@code fvault2Dump}, {@code test} is
 * {@code open --type fvault2 --test-passphrase}.
 *
 * <p>The passphrase is the first line of standard input when it is not a terminal, else a prompt
 * without echo, or the whole {@code --key-file} ({@code -}: all of standard input), as cryptsetup
 * reads it; {@code --volume-key-file} gives the volume key's 32 bytes instead. {@code info}
 * without {@code --dump-volume-key} reads no secret.
 */
final class Fvault2Commands implements FormatCommands {
    private final Session s;
    private final UnlockOptions o;

    private Fvault2Commands(Session s, UnlockOptions o) {
        this.s = s;
        this.o = o;
    }

    /** The commands of {@code --type fvault2}, after refusing what it does not take. */
    static Fvault2Commands of(Session s, UnlockOptions o) throws UsageException {
        if (o.luksOrTcryptOption()) {
            throw new UsageException("--type fvault2 takes no --key-slot, --header, --threads, --hash, --cipher,"
                    + " --tcrypt-* or --veracrypt-* option");
        }
        if (o.keyFiles.size() > 1) {
            throw new UsageException("--key-file given " + o.keyFiles.size() + " times: a FileVault 2 volume takes"
                    + " one passphrase");
        }
        return new Fvault2Commands(s, o);
    }

    @Override
    public void checkInfo(Path image, boolean dumpKey) throws IOException, UsageException {
        Checks.image(image);
        if (!dumpKey && (o.volumeKey != null || o.keyFile() != null)) {
            throw new UsageException("info --type fvault2 reads no secret unless --dump-volume-key");
        }
    }

    @Override
    public void printHeader(Path image) throws IOException, VolumeException {
        s.out.print(Fvault2Volume.info(image).dump(image.toString()));
    }

    @Override
    public Volume unlock(String verb, Path image, boolean write) throws IOException, VolumeException, UsageException {
        return open(image, !verb.equals("info"));
    }

    /**
     * Unlocks {@code image} with {@code --volume-key-file}'s key, else the passphrase;
     * {@code activate}: refuse, before the passphrase is read, a volume whose payload cannot be
     * reached.
     */
    private Fvault2Volume open(Path image, boolean activate) throws IOException, VolumeException, UsageException {
        Checks.image(image);
        // refused before the passphrase is read or derived
        Fvault2Info info = Fvault2Volume.info(image);
        if (activate && info.activationProblem() != null) {
            throw new VolumeException(info.activationProblem());
        }
        Fvault2Volume.Builder b = Fvault2Volume.at(image);
        if (o.volumeKey != null && o.volumeKey.volumeKeyFile != null) {
            int bytes = info.keyBits() / 8;
            byte[] k = VolumeKeyOptions.read(o.volumeKey.volumeKeyFile, bytes, bytes,
                    "a FileVault 2 volume key is " + bytes);
            try {
                b.volumeKey(k);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        } else {
            // the passphrase as the LUKS verbs read it: the key file's bytes, else standard input or a prompt
            Path kf = o.keyFile();
            byte[] pw = kf != null ? s.keyFileBytes(kf) : s.passphrase(LuksVolume.MAX_KEY_FILE);
            try {
                b.passphrase(pw);
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
        }
        return b.open();
    }
}
