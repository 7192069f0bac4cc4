package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * TrueCrypt's keyfile pool, as VeraCrypt's {@code src/Common/Keyfiles.c} and cryptsetup's
 * {@code TCRYPT_pool_keyfile} compute it: for each keyfile (its first 1 MiB), a CRC-32 register
 * runs over its bytes (starting at 0xFFFFFFFF, no final inversion) and after each byte its four
 * bytes, most significant first, are added (mod 256) into the pool at a cursor that wraps at the
 * pool's length; then the passphrase's bytes are added to the pool's first bytes. The pool —
 * 64 bytes, or VeraCrypt's 128 when the passphrase is longer than 64 — is then the PBKDF's
 * password, whole. Without keyfiles the password is the passphrase itself. Sums commute, so the
 * keyfiles' order does not matter (VeraCrypt copies the passphrase in first and adds the keyfiles
 * after: the same sums), and each keyfile is added as it is read: only the pools are kept, however
 * many keyfiles a folder holds.
 */
final class KeyfilePool {
    static final int TC_POOL = 64, VC_POOL = 128;

    // both pool lengths, since which one counts depends on the passphrase, given in any order
    private final byte[] tc = new byte[TC_POOL], vc = new byte[VC_POOL];
    private int count;

    /** Adds a keyfile's bytes (its first 1 MiB) to the pools; the caller wipes {@code keyfile}. */
    void add(byte[] keyfile) {
        add(keyfile, tc);
        add(keyfile, vc);
        count++;
    }

    /** How many keyfiles were added. */
    int count() {
        return count;
    }

    /** The PBKDF password: the passphrase itself without keyfiles, else the {@code poolLength}-byte pool plus it. */
    byte[] password(byte[] passphrase, int poolLength) {
        if (count == 0) {
            return passphrase.clone();
        }
        byte[] pool = (poolLength == VC_POOL ? vc : tc).clone();
        for (int i = 0; i < passphrase.length; i++) {
            pool[i] += passphrase[i];
        }
        return pool;
    }

    /** Wipes both pools. */
    void wipe() {
        Arrays.fill(tc, (byte) 0);
        Arrays.fill(vc, (byte) 0);
        count = 0;
    }

    /** The PBKDF password for {@code passphrase} and {@code keyfiles} with a {@code poolLength}-byte pool. */
    static byte[] password(byte[] passphrase, List<byte[]> keyfiles, int poolLength) {
        KeyfilePool p = new KeyfilePool();
        try {
            for (byte[] k : keyfiles) {
                p.add(k);
            }
            return p.password(passphrase, poolLength);
        } finally {
            p.wipe();
        }
    }

    private static void add(byte[] keyfile, byte[] pool) {
        CRC32 crc = new CRC32();
        int j = 0;
        for (byte b : keyfile) {
            crc.update(b);
            int reg = ~(int) crc.getValue(); // the raw register: CRC32 inverts on the way out
            pool[j++] += (byte) (reg >>> 24);
            pool[j++] += (byte) (reg >>> 16);
            pool[j++] += (byte) (reg >>> 8);
            pool[j++] += (byte) reg;
            j %= pool.length;
        }
    }

    /**
     * The keyfiles of folder {@code dir}, as VeraCrypt's {@code Keyfile::ApplyListToPassword} takes
     * them on Unix: its regular files ({@code Directory::GetFilePaths}, links followed), neither
     * subfolders (not entered) nor names starting with {@code .} (hidden); sorted by name, which
     * only makes the reading order repeatable.
     */
    static List<Path> folder(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> !p.getFileName().toString().startsWith("."))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        }
    }

}
