package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.file.Path;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;

/**
 * What the verbs that read a volume do differently per format: the checks of the options before
 * any secret is read, the header as the format's cryptsetup dump prints it, and the unlocking. The
 * verbs ({@link InfoVerb}, {@link TestVerb}, {@link DecryptVerb}, {@link ServeVerb},
 * {@link MountVerb}, {@link FilesVerbs}) are written once over it; {@link #of} picks the format
 * by {@code --type}, else by the signature {@link Volumes#detect} finds.
 */
interface FormatCommands {
    /**
     * The commands of the format {@code --type} names, else of the one {@code image}'s signature
     * shows (BitLocker and FileVault 2 said on stderr; LUKS when none, which then reports a missing
     * magic), after refusing the options that format does not take.
     */
    static FormatCommands of(Session s, UnlockOptions o, Path image) throws UsageException {
        String type = o.type;
        if (type == null) {
            VolumeFormat found = detect(image);
            if (found == VolumeFormat.BITLK) {
                s.err.println("Found a BitLocker volume: reading it as --type bitlk.");
                return BitlkCommands.of(s, o);
            }
            if (found == VolumeFormat.FVAULT2) {
                s.err.println("Found a FileVault 2 volume: reading it as --type fvault2.");
                return Fvault2Commands.of(s, o);
            }
        }
        if (o.volumeKey != null && !"bitlk".equals(type) && !"fvault2".equals(type)) {
            throw new UsageException("--volume-key-file is read with --type bitlk or fvault2 only");
        }
        return switch (type == null ? "luks" : type) {
            case "bitlk" -> BitlkCommands.of(s, o);
            case "fvault2" -> Fvault2Commands.of(s, o);
            case "tcrypt" -> TcryptCommands.of(s, o);
            case "luks", "luks1", "luks2" -> LuksCommands.of(s, o, type == null ? "luks" : type, type == null);
            default -> throw new UsageException("--type " + type + ": luks, luks1, luks2, tcrypt, bitlk or fvault2");
        };
    }

    /** The format {@code image}'s signature shows; null when none, or when it cannot be read (the LUKS path then reports it). */
    private static VolumeFormat detect(Path image) {
        try {
            return Volumes.detect(image);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Unlocks {@code image} as the options say, whatever its format: the one place a verb that
     * works on the {@link Volume} itself ({@code test}, {@code decrypt}, {@code serve},
     * {@code mount}, the files verbs) turns the command line into one.
     */
    static Volume unlock(Session s, UnlockOptions o, String verb, Path image, boolean write) throws Exception {
        return of(s, o, image).unlock(verb, image, write);
    }

    /** {@code info}'s checks of the options and the image, before anything is read or asked. */
    void checkInfo(Path image, boolean dumpKey) throws IOException, VolumeException, UsageException;

    /** {@code info} without {@code --dump-volume-key}: the header, as the format's cryptsetup dump prints it, on standard output. */
    void printHeader(Path image) throws IOException, VolumeException, UsageException;

    /**
     * Unlocks {@code image} for {@code verb}, for writing when {@code write} and the format allows
     * it (LUKS and TrueCrypt/VeraCrypt; BitLocker and FileVault 2 are read-only). For every verb
     * but {@code info} (whose {@code --dump-volume-key} reads the key of any volume), a volume
     * whose payload cannot be reached is refused before any secret is read.
     */
    Volume unlock(String verb, Path image, boolean write) throws IOException, VolumeException, UsageException;

    /** How the dumps name {@code image} (cryptsetup's device name). */
    default String device(Path image) {
        return image.toString();
    }

    /** {@code test -v}'s line for the unlocked {@code v}, or null when the format has nothing to say. */
    default String unlocked(Volume v) {
        return null;
    }

    /** How many workers {@code decrypt} copies with, given {@code --threads} (null when not given). */
    default int decryptThreads(Integer threads) {
        return Checks.processors();
    }
}
