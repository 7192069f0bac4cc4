package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.fvault2.Fvault2Info;
import org.vectorjce.volumes.fvault2.Fvault2Volume;

/**
 * The {@code volume} command's {@code --type fvault2} verbs, with cryptsetup's option names:
 *
 * <pre>
 * volume info    --type fvault2 IMAGE [--dump-volume-key [-q]]    (cryptsetup fvault2Dump)
 * volume test    --type fvault2 IMAGE                             (open --type fvault2 --test-passphrase)
 * volume decrypt --type fvault2 IMAGE OUT                         (the device open --type fvault2 maps)
 *   [--key-file F] [--volume-key-file F]
 * </pre>
 *
 * The passphrase is the first line of standard input when it is not a terminal, else a prompt
 * without echo, or the whole {@code --key-file} (-: all of standard input), as cryptsetup reads it;
 * {@code --volume-key-file} gives the volume key's 32 bytes instead. {@code info} without
 * {@code --dump-volume-key} reads no secret. Exit statuses: {@link Exits} (2: the passphrase does
 * not open the key bag).
 */
public final class Fvault2Command {
    /** Where the passphrase comes from: the key file or standard input, as the LUKS verbs read it. */
    @FunctionalInterface
    public interface Secret {
        byte[] read() throws IOException, VolumeException, UsageException;
    }

    private final PrintStream out;
    private final Console console;

    public Fvault2Command(PrintStream out, Console console) {
        this.out = out;
        this.console = console;
    }

    /**
     * {@code info} of {@code image} once the command line is parsed; {@code passphrase} is read
     * only with {@code --dump-volume-key} and no {@code volumeKeyFile} ({@code keyFile}: whether
     * {@code --key-file} was given, which {@code info} refuses without {@code --dump-volume-key}).
     */
    int info(Path image, Path volumeKeyFile, boolean keyFile, Secret passphrase, boolean dumpKey, boolean quiet)
            throws IOException, VolumeException, UsageException {
        VolumeMain.checkImage(image);
        if (!dumpKey) {
            if (volumeKeyFile != null || keyFile) {
                throw new UsageException("info --type fvault2 reads no secret unless --dump-volume-key");
            }
            out.print(Fvault2Volume.info(image).dump(image.toString()));
            return Exits.OK;
        }
        if (!quiet) {
            BitlkCommand.confirmKeyDump(console);
        }
        try (Fvault2Volume v = open(image, volumeKeyFile, passphrase, false)) {
            byte[] k = v.volumeKey();
            try {
                out.print(v.info().dumpWithKey(image.toString(), k));
            } finally {
                Arrays.fill(k, (byte) 0);
            }
            return Exits.OK;
        }
    }

    /**
     * Unlocks {@code image} with {@code --volume-key-file}'s key, else the passphrase;
     * {@code activate}: refuse, before the passphrase is read, a volume whose payload cannot be
     * reached.
     */
    Fvault2Volume open(Path image, Path volumeKeyFile, Secret passphrase, boolean activate)
            throws IOException, VolumeException, UsageException {
        VolumeMain.checkImage(image);
        // refused before the passphrase is read or derived
        Fvault2Info info = Fvault2Volume.info(image);
        if (activate && info.activationProblem() != null) {
            throw new VolumeException(info.activationProblem());
        }
        Fvault2Volume.Builder b = Fvault2Volume.at(image);
        if (volumeKeyFile != null) {
            int bytes = info.keyBits() / 8;
            byte[] k = BitlkCommand.volumeKeyFile(volumeKeyFile, bytes, bytes, "a FileVault 2 volume key is " + bytes);
            try {
                b.volumeKey(k);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        } else {
            byte[] pw = passphrase.read();
            try {
                b.passphrase(pw);
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
        }
        return b.open();
    }

    /**
     * Whether {@code image} starts with a Core Storage physical volume header (the {@code CS}
     * signature, version 1 and its CRC-32C). Any failure to read says no: the LUKS path then
     * reports it.
     */
    static boolean looksLikeFvault2(Path image) {
        try (SeekableByteChannel c = FileChannel.open(image, StandardOpenOption.READ)) {
            return Fvault2Volume.looksLikeFvault2(c);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
