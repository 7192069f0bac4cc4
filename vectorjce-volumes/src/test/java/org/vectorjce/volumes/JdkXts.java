package org.vectorjce.volumes;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * An XTS-AES oracle independent of the provider: IEEE 1619 built here on the JDK's own
 * {@code AES/ECB/NoPadding} (SunJCE), with dm-crypt's {@code plain64} tweak (the 512-byte sector
 * number, 64-bit little-endian), as LUKS uses it without {@code iv_large_sectors}.
 */
public final class JdkXts {
    private JdkXts() {
    }

    /**
     * {@code data} (whole sectors of {@code sectorSize}, payload sector 0 first) encrypted or
     * decrypted with {@code key} = K1 ‖ K2.
     */
    public static byte[] crypt(boolean encrypt, byte[] key, byte[] data, int sectorSize) throws Exception {
        int half = key.length / 2;
        Cipher data1 = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
        data1.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, 0, half, "AES"));
        Cipher tweak = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
        tweak.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, half, half, "AES"));
        byte[] out = new byte[data.length];
        byte[] t = new byte[16];
        byte[] ts = new byte[sectorSize];
        byte[] x = new byte[sectorSize];
        for (int s = 0; s * sectorSize < data.length; s++) {
            long n = (long) s * (sectorSize / 512);
            byte[] iv = new byte[16];
            for (int i = 0; i < 8; i++) {
                iv[i] = (byte) (n >>> (8 * i));
            }
            t = tweak.doFinal(iv);
            for (int b = 0; b < sectorSize; b += 16) {
                System.arraycopy(t, 0, ts, b, 16);
                int carry = (t[15] >>> 7) & 1; // t × α in GF(2^128), little-endian
                for (int j = 15; j > 0; j--) {
                    t[j] = (byte) ((t[j] << 1) | ((t[j - 1] >>> 7) & 1));
                }
                t[0] = (byte) ((t[0] << 1) ^ (carry * 0x87));
            }
            int off = s * sectorSize;
            for (int i = 0; i < sectorSize; i++) {
                x[i] = (byte) (data[off + i] ^ ts[i]);
            }
            data1.doFinal(x, 0, sectorSize, x, 0);
            for (int i = 0; i < sectorSize; i++) {
                out[off + i] = (byte) (x[i] ^ ts[i]);
            }
        }
        return out;
    }
}
