package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Arrays;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.bitlk.BitlkInfo;
import org.vectorjce.volumes.bitlk.BitlkVolume;

/**
 * {@link FormatCommands} for {@code --type bitlk} (BitLocker and BitLocker To Go), with
 * cryptsetup's option names: {@code info} is {@code bitlkDump}, {@code test} is
 * {@code bitlkOpen --test-passphrase}.
 *
 * <p>The passphrase — the password or a recovery password, as cryptsetup takes either — is the
 * first line of standard input when it is not a terminal, else a prompt without echo;
 * {@code --key-file} gives a startup key ({@code .BEK} file) instead, {@code --volume-key-file}
 * the volume key's bytes. A volume with a clear key opens without either (an empty line).
 * {@code info} without {@code --dump-volume-key} reads no secret.
 */
final class BitlkCommands implements FormatCommands {
    private static final int MAX_PASSWORD_LINE = 4096;

    private final Session s;
    private final UnlockOptions o;

    private BitlkCommands(Session s, UnlockOptions o) {
        this.s = s;
        this.o = o;
    }

    /** The commands of {@code --type bitlk}, after refusing what it does not take. */
    static BitlkCommands of(Session s, UnlockOptions o) throws UsageException {
        if (o.luksOrTcryptOption()) {
            throw new UsageException("--type bitlk takes no --key-slot, --header, --threads, --hash, --cipher,"
                    + " --tcrypt-* or --veracrypt-* option");
        }
        return new BitlkCommands(s, o);
    }

    @Override
    public void checkInfo(Path image, boolean dumpKey) throws IOException, UsageException {
        Checks.image(image);
        if (!dumpKey && (o.volumeKey != null || !o.keyFiles.isEmpty())) {
            throw new UsageException("info --type bitlk reads no secret unless --dump-volume-key");
        }
    }

    @Override
    public void printHeader(Path image) throws IOException, VolumeException {
        BitlkInfo info = BitlkVolume.info(image);
        for (String w : info.warnings()) {
            s.err.println("WARNING: " + w + ".");   // a bad copy, skipped for the next valid one
        }
        s.out.print(info.dump(image.toString(), ZoneId.systemDefault()));
        if (!info.fullyEncrypted()) {
            // encrypt-on-write or a conversion part way: what the metadata says and how the payload reads
            // (a fully encrypted volume's text stays cryptsetup's bitlkDump, byte for byte)
            s.out.print('\n');
            s.out.print(info.conversionDump());
        }
    }

    @Override
    public Volume unlock(String verb, Path image, boolean write) throws IOException, VolumeException, UsageException {
        return open(image, !verb.equals("info"));
    }

    /**
     * Unlocks {@code image} with the secret the options name: {@code --volume-key-file}, else the
     * startup key file ({@code --key-file}), else the passphrase or recovery password from standard
     * input or a prompt. {@code activate}: refuse, before any secret is read, a volume whose
     * payload cannot be reached (as cryptsetup's activation check).
     */
    private BitlkVolume open(Path image, boolean activate) throws IOException, VolumeException, UsageException {
        if (o.keyFiles.size() > 1) {
            throw new UsageException("--key-file given " + o.keyFiles.size() + " times: a BitLocker volume takes one"
                    + " startup key");
        }
        Checks.image(image);
        // refused before any secret is read or stretched, as cryptsetup's _activate_check
        if (activate) {
            BitlkInfo info = BitlkVolume.info(image);
            if (info.activationProblem() != null) {
                throw new VolumeException(info.activationProblem());
            }
        }
        BitlkVolume.Builder b = BitlkVolume.at(image);
        if (o.volumeKey != null && o.volumeKey.volumeKeyFile != null) {
            byte[] k = VolumeKeyOptions.read(o.volumeKey.volumeKeyFile, 0, 64, "a BitLocker volume key is 16 to 64");
            try {
                b.volumeKey(k);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        } else if (!o.keyFiles.isEmpty()) {
            Checks.keyFile(o.keyFiles.get(0), "The startup key file");
            b.startupKey(o.keyFiles.get(0));
        } else {
            byte[] pw = s.passphrase(MAX_PASSWORD_LINE);
            try {
                if (pw.length > 0) {
                    b.passphrase(pw);
                }
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
        }
        return b.open();
    }
}
