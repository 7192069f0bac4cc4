package org.vectorjce.tool.volume;

import picocli.CommandLine.Option;

/**
 * The options only {@code --type tcrypt} reads, with cryptsetup's names: a picocli group of its
 * own in the help of the verbs that unlock ({@link UnlockOptions}); null when none was given.
 */
final class TcryptOptions {
    @Option(names = "--tcrypt-hidden", description = "Open the hidden volume's header.")
    boolean hidden;
    @Option(names = "--tcrypt-system", description = "A system-encrypted drive or partition (its header at "
            + "sector 62; with --header, the drive holding it).")
    boolean system;
    @Option(names = "--tcrypt-backup", description = "Open the backup header at the end of the image.")
    boolean backup;
    @Option(names = "--veracrypt-pim", paramLabel = "N", description = "VeraCrypt's PIM (1 or more).")
    Integer pim;
    @Option(names = "--disable-veracrypt", description = "Try TrueCrypt's KDF rows only.")
    boolean disableVeracrypt;
    @Option(names = "--veracrypt", hidden = true, description = "cryptsetup's old switch: VeraCrypt is tried by default.")
    boolean veracrypt;
    @Option(names = {"--hash", "-h"}, paramLabel = "HASH", description = "Try only this PBKDF2 hash "
            + "(sha512, sha256, whirlpool, ripemd160, blake2s-256, stribog512).")
    String hash;
    @Option(names = {"--cipher", "-c"}, paramLabel = "CHAIN", description = "Try only the cipher chains whose "
            + "name (cryptsetup's, as tcryptDump prints it) contains this: aes, serpent, twofish, "
            + "twofish-aes, aes-twofish-serpent, camellia, kuznyechik, ...")
    String cipher;
}
