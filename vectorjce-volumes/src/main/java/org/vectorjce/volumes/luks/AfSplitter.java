package org.vectorjce.volumes.luks;

import java.util.Arrays;

import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * The anti-forensic information splitter of LUKS (LUKS1 On-Disk Format Specification, section 2.4,
 * "AF-Splitter"; cryptsetup {@code lib/luks1/af.c}): a key of {@code n} bytes is stored as
 * {@code stripes} blocks of {@code n} bytes; merging XORs each block but the last into a running
 * value diffused by the hash after each XOR, then XORs the last block in.
 *
 * <p>Diffusion (the specification's {@code H}): the value is cut into pieces of the digest's
 * length (the last piece may be shorter); piece {@code j} becomes hash(be32(j) ‖ piece), truncated
 * to the piece's length.
 */
final class AfSplitter {
    private AfSplitter() {
    }

    /** The {@code keyBytes}-byte key merged from {@code stripes} blocks at the start of {@code material}. */
    static byte[] merge(byte[] material, int keyBytes, int stripes, HashAlgorithm hash) {
        if ((long) keyBytes * stripes > material.length) {
            throw new IllegalArgumentException("AF material holds " + material.length + " bytes, not " + stripes
                    + " x " + keyBytes);
        }
        byte[] d = new byte[keyBytes];
        HashAlgorithm.HashFunction h = hash.newHash();
        byte[] digest = new byte[h.length()];
        byte[] index = new byte[4];
        try {
            for (int s = 0; s < stripes - 1; s++) {
                int base = s * keyBytes;
                for (int i = 0; i < keyBytes; i++) {
                    d[i] ^= material[base + i];
                }
                diffuse(d, h, digest, index);
            }
            int base = (stripes - 1) * keyBytes;
            byte[] key = new byte[keyBytes];
            for (int i = 0; i < keyBytes; i++) {
                key[i] = (byte) (d[i] ^ material[base + i]);
            }
            return key;
        } finally {
            Arrays.fill(d, (byte) 0);
            Arrays.fill(digest, (byte) 0);
        }
    }

    /**
     * Splits {@code key} into {@code stripes} blocks (LUKS1 specification, "AFsplit"): the first
     * {@code stripes - 1} random, the last the key XOR the diffused XOR of the others, so that
     * {@link #merge} gives the key back.
     */
    static byte[] split(byte[] key, int stripes, HashAlgorithm hash, java.security.SecureRandom random) {
        int n = key.length;
        byte[] out = new byte[n * stripes];
        random.nextBytes(out);
        byte[] d = new byte[n];
        HashAlgorithm.HashFunction h = hash.newHash();
        byte[] digest = new byte[h.length()];
        byte[] index = new byte[4];
        try {
            for (int s = 0; s < stripes - 1; s++) {
                for (int i = 0; i < n; i++) {
                    d[i] ^= out[s * n + i];
                }
                diffuse(d, h, digest, index);
            }
            for (int i = 0; i < n; i++) {
                out[(stripes - 1) * n + i] = (byte) (d[i] ^ key[i]);
            }
            return out;
        } finally {
            Arrays.fill(d, (byte) 0);
            Arrays.fill(digest, (byte) 0);
        }
    }

    private static void diffuse(byte[] d, HashAlgorithm.HashFunction h, byte[] digest, byte[] index) {
        int size = h.length();
        for (int j = 0, off = 0; off < d.length; j++, off += size) {
            int len = Math.min(size, d.length - off);
            index[0] = (byte) (j >>> 24);
            index[1] = (byte) (j >>> 16);
            index[2] = (byte) (j >>> 8);
            index[3] = (byte) j;
            h.update(index, 0, 4);
            h.update(d, off, len);
            h.doFinal(digest, 0);
            System.arraycopy(digest, 0, d, off, len);
        }
    }
}
