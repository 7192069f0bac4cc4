package org.vectorjce.tool.volume;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * How a verb that reads a volume of any format unlocks it ({@code info}, {@code test},
 * {@code decrypt}, {@code serve}, {@code mount} and the files verbs): {@code --type}, the secrets
 * and the options shared by the formats, and the groups only TrueCrypt/VeraCrypt or only
 * BitLocker and FileVault 2 read. A picocli mixin; {@link FormatCommands#of} turns it into the
 * format's commands.
 */
final class UnlockOptions {
    @Option(names = {"--type", "-M"}, paramLabel = "TYPE", description = "luks (default: LUKS1 or LUKS2, as the "
            + "header says; a BitLocker or Core Storage signature makes it bitlk or fvault2), luks1, luks2, tcrypt "
            + "(TrueCrypt/VeraCrypt), bitlk (BitLocker) or fvault2 (FileVault 2).")
    String type;
    @Option(names = "--header", paramLabel = "FILE", description = "A detached header (LUKS); the header's "
            + "image (--type tcrypt, e.g. the drive of a system partition).")
    Path header;
    @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "LUKS: the passphrase is this file's "
            + "bytes (-: all of standard input). --type tcrypt: a keyfile or a folder of them, added to the "
            + "password (repeatable).")
    List<Path> keyFiles = new ArrayList<>();
    @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "LUKS: try only this key slot.")
    Integer keySlot;
    @Option(names = "--threads", paramLabel = "N", description = "decrypt: workers (LUKS, 1 to 1024); "
            + "--type tcrypt: header trials at once. Default: the processor count.")
    Integer threads;
    @ArgGroup(exclusive = false, validate = false, heading = "%nTrueCrypt/VeraCrypt (with --type tcrypt):%n")
    TcryptOptions tcrypt;
    @ArgGroup(exclusive = false, validate = false, heading = "%nBitLocker (with --type bitlk; --key-file F.BEK is a "
            + "startup key; the passphrase on standard input may be the password or a recovery password) and "
            + "FileVault 2 (--type fvault2):%n")
    VolumeKeyOptions volumeKey;

    /** The first {@code --key-file}, or null. */
    Path keyFile() {
        return keyFiles.isEmpty() ? null : keyFiles.get(0);
    }

    /** Whether {@code --key-slot}, {@code --header}, {@code --threads} or a TrueCrypt option was given: BitLocker and FileVault 2 take none. */
    boolean luksOrTcryptOption() {
        return keySlot != null || header != null || threads != null || tcrypt != null;
    }
}
