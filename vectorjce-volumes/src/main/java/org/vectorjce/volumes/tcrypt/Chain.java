package org.vectorjce.volumes.tcrypt;

import java.util.ArrayList;
import java.util.List;

/**
 * One TrueCrypt/VeraCrypt cipher chain in one mode: a row of cryptsetup's {@code tcrypt_cipher[]}
 * table ({@code lib/tcrypt/tcrypt.c}), with its names, key sizes and key offsets, in the table's
 * order. {@link #name} is cryptsetup's name, the ciphers in the order they <em>encrypt</em>
 * ({@code twofish-aes} is VeraCrypt's "AES-Twofish": Twofish first, then AES on its output), so
 * decryption runs the chain from its last cipher to its first.
 *
 * <p>Where each cipher's key comes from in the 256-byte key area of the header (or, for the
 * header itself, the derived header key), as {@code TCRYPT_copy_key} reads it:
 * <ul>
 *   <li>XTS: key {@code [keyOffset, +32)} then tweak key {@code [ivOffset, +32)} (all primary keys
 *       first, then all tweak keys);</li>
 *   <li>LRW (TrueCrypt 4.x): key {@code [keyOffset, +keySize-16)} then the tweak key {@code [0, 16)},
 *       the same for every cipher of the chain;</li>
 *   <li>CBC (TrueCrypt before 4.0): key {@code [keyOffset, +keySize)}, IV {@code [ivOffset, +block)},
 *       whitening {@code [8, 16)}.</li>
 * </ul>
 */
record Chain(String name, Mode mode, List<Part> parts, int keySize) {

    /** The chain's mode, as cryptsetup names it. */
    enum Mode {
        XTS("xts-plain64"), LRW("lrw-benbi"),
        /** CBC with whitening, one cipher ({@code cbc-tcw}) or each cipher its own CBC ({@code cbc-tcrypt}). */
        CBC_TCW("cbc-tcw"), CBC_TCRYPT("cbc-tcrypt"),
        /** CBC around the whole chain ("inner" CBC; {@code cbci-tcrypt}). */
        CBCI_TCRYPT("cbci-tcrypt");

        final String cryptsetupName;

        Mode(String n) {
            cryptsetupName = n;
        }

        boolean legacy() {
            return this != XTS && this != LRW;
        }
    }

    /** One cipher of a chain: cryptsetup's {@code struct tcrypt_alg}. */
    record Part(String cipher, int keySize, int blockSize, int keyOffset, int ivOffset, int extraSize) {
    }

    static final List<Chain> ROWS = rows();

    private static List<Chain> rows() {
        List<Chain> r = new ArrayList<>();
        // XTS: 64-byte XTS key per cipher, primary keys at 32 × i, tweak keys after all of them.
        for (String n : List.of("aes", "serpent", "twofish", "twofish-aes", "serpent-twofish-aes", "aes-serpent",
                "aes-twofish-serpent", "serpent-twofish", "camellia", "kuznyechik", "kuznyechik-camellia",
                "twofish-kuznyechik", "serpent-camellia", "aes-kuznyechik", "camellia-serpent-kuznyechik")) {
            String[] c = n.split("-");
            List<Part> p = new ArrayList<>();
            for (int i = 0; i < c.length; i++) {
                p.add(new Part(c[i], 64, 16, 32 * i, 32 * c.length + 32 * i, 0));
            }
            r.add(new Chain(n, Mode.XTS, p, 64 * c.length));
        }
        // LRW: 32-byte keys from byte 32 on, one 16-byte tweak key at 0.
        for (String n : List.of("aes", "serpent", "twofish", "twofish-aes", "serpent-twofish-aes", "aes-serpent",
                "aes-twofish-serpent", "serpent-twofish")) {
            String[] c = n.split("-");
            List<Part> p = new ArrayList<>();
            for (int i = 0; i < c.length; i++) {
                p.add(new Part(c[i], 48, 16, 32 + 32 * i, 0, 0));
            }
            r.add(new Chain(n, Mode.LRW, p, 48 * c.length));
        }
        // CBC with whitening (TrueCrypt before 4.0): chain key = cipher keys + IV seed + whitening.
        r.add(new Chain("aes", Mode.CBC_TCW, List.of(new Part("aes", 32, 16, 32, 0, 32)), 64));
        r.add(new Chain("serpent", Mode.CBC_TCW, List.of(new Part("serpent", 32, 16, 32, 0, 32)), 64));
        r.add(new Chain("twofish", Mode.CBC_TCW, List.of(new Part("twofish", 32, 16, 32, 0, 32)), 64));
        r.add(cbci("twofish-aes"));
        r.add(cbci("serpent-twofish-aes"));
        r.add(cbci("aes-serpent"));
        r.add(cbci("aes-twofish-serpent"));
        r.add(cbci("serpent-twofish"));
        r.add(new Chain("cast5", Mode.CBC_TCW, List.of(new Part("cast5", 16, 8, 32, 0, 24)), 40));
        r.add(new Chain("des3_ede", Mode.CBC_TCW, List.of(new Part("des3_ede", 24, 8, 32, 0, 24)), 48));
        r.add(new Chain("blowfish_le", Mode.CBC_TCRYPT, List.of(new Part("blowfish_le", 56, 8, 32, 0, 24)), 80));
        r.add(new Chain("blowfish_le-aes", Mode.CBC_TCRYPT, List.of(new Part("blowfish_le", 56, 8, 32, 0, 0),
                new Part("aes", 32, 16, 88, 0, 32)), 120));
        r.add(new Chain("serpent-blowfish_le-aes", Mode.CBC_TCRYPT, List.of(new Part("serpent", 32, 16, 32, 0, 0),
                new Part("blowfish_le", 56, 8, 64, 0, 0), new Part("aes", 32, 16, 120, 0, 32)), 152));
        return List.copyOf(r);
    }

    private static Chain cbci(String n) {
        String[] c = n.split("-");
        List<Part> p = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            p.add(new Part(c[i], 32, 16, 32 + 32 * i, 0, i == c.length - 1 ? 32 : 0));
        }
        return new Chain(n, Mode.CBCI_TCRYPT, p, 32 * c.length + 32);
    }

    /** Whether cryptsetup's {@code -c hint} selects this row: a substring of its name. */
    boolean matches(String hint) {
        return hint == null || name.contains(hint);
    }

    /**
     * How many leading bytes of key material (the derived header key, or the header's key area)
     * this chain reads: its keys, and LRW's tweak key or CBC's IV seed and whitening.
     */
    int keyBytesNeeded() {
        int n = 16; // LRW's tweak key, CBC's IV and whitening
        for (Part p : parts) {
            switch (mode) {
                case XTS -> n = Math.max(n, Math.max(p.keyOffset + 32, p.ivOffset + 32));
                case LRW -> n = Math.max(n, p.keyOffset + p.keySize - 16);
                default -> n = Math.max(n, Math.max(p.keyOffset + p.keySize,
                        p.ivOffset + Math.max(p.blockSize, p.extraSize)));
            }
        }
        return n;
    }

    /**
     * What is wrong with {@code material} as this chain's key material ({@code what}: which it
     * is), or null: too short for {@link #keyBytesNeeded()} (a cascade reads up to 192 bytes).
     */
    String keyMaterialProblem(byte[] material, String what) {
        int need = keyBytesNeeded();
        if (material != null && material.length >= need) {
            return null;
        }
        return "Cipher chain " + this + " reads " + need + " bytes of " + what + "; "
                + (material == null ? "none" : material.length) + " given";
    }

    /**
     * Cipher {@code i}'s key from {@code area} (at least {@link #keyBytesNeeded()} bytes, else
     * {@code IllegalArgumentException} naming the chain and both lengths) in the layout the provider's mode takes (XTS: K1 ‖ K2;
     * LRW: key ‖ 16-byte tweak key; CBC: key ‖ IV seed ‖ whitening), as {@code TCRYPT_copy_key}.
     */
    byte[] partKey(int i, byte[] area) {
        String problem = keyMaterialProblem(area, "key area");
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        Part p = parts.get(i);
        byte[] k;
        switch (mode) {
            case XTS -> {
                k = new byte[64];
                System.arraycopy(area, p.keyOffset, k, 0, 32);
                System.arraycopy(area, p.ivOffset, k, 32, 32);
            }
            case LRW -> {
                int ks = p.keySize - 16;
                k = new byte[p.keySize];
                System.arraycopy(area, p.keyOffset, k, 0, ks);
                System.arraycopy(area, 0, k, ks, 16);
            }
            default -> {
                k = new byte[p.keySize + p.extraSize];
                System.arraycopy(area, p.keyOffset, k, 0, p.keySize);
                System.arraycopy(area, p.ivOffset, k, p.keySize, p.extraSize);
            }
        }
        return k;
    }

    /**
     * The volume key as cryptsetup dumps it ({@code TCRYPT_get_volume_key}): each cipher's
     * {@link #partKey} at the sum of the key sizes before it, first cipher first, so that a CBC
     * chain's IV seed and whitening (the last cipher's extra bytes) end the key.
     */
    byte[] volumeKey(byte[] area) {
        byte[] vk = new byte[keySize];
        int at = 0;
        for (int i = 0; i < parts.size(); i++) {
            byte[] k = partKey(i, area);
            System.arraycopy(k, 0, vk, at, Math.min(k.length, vk.length - at));
            at += parts.get(i).keySize;
            java.util.Arrays.fill(k, (byte) 0);
        }
        return vk;
    }

    @Override
    public String toString() {
        return name + "-" + mode.cryptsetupName;
    }
}
