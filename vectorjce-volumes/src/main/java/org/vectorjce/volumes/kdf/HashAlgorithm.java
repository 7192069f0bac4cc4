package org.vectorjce.volumes.kdf;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.digests.GOST3411_2012_512Digest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.bouncycastle.crypto.digests.WhirlpoolDigest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

import org.vectorjce.volumes.UnsupportedVolumeException;

/**
 * The hashes LUKS names in its headers ({@code hashSpec}, {@code af.hash}, {@code kdf.hash},
 * digest {@code hash}), by cryptsetup's (libgcrypt's and the kernel's) lower-case names. SHA-1 and
 * SHA-2 come from the JDK (its HMAC is intrinsic-accelerated); RIPEMD-160, Whirlpool, BLAKE2s-256
 * and Streebog-512 (GOST R 34.11-2012; the last two are VeraCrypt PRFs) from Bouncy Castle's
 * lightweight API.
 */
public enum HashAlgorithm {
    SHA1("sha1", "SHA-1", 20),
    SHA224("sha224", "SHA-224", 28),
    SHA256("sha256", "SHA-256", 32),
    SHA384("sha384", "SHA-384", 48),
    SHA512("sha512", "SHA-512", 64),
    RIPEMD160("ripemd160", null, 20),
    WHIRLPOOL("whirlpool", null, 64),
    BLAKE2S_256("blake2s-256", null, 32),
    STREEBOG512("stribog512", null, 64);

    private final String luksName;
    private final String jdkName;
    private final int length;

    HashAlgorithm(String luksName, String jdkName, int length) {
        this.luksName = luksName;
        this.jdkName = jdkName;
        this.length = length;
    }

    /** The hash named {@code name} in a LUKS header, e.g. {@code sha256}. */
    public static HashAlgorithm forLuksName(String name) throws UnsupportedVolumeException {
        String n = name.toLowerCase(Locale.ROOT);
        for (HashAlgorithm h : values()) {
            if (h.luksName.equals(n)) {
                return h;
            }
        }
        throw new UnsupportedVolumeException("Hash '" + name
                + "' is not supported (sha1, sha224, sha256, sha384, sha512, ripemd160, whirlpool, blake2s-256,"
                + " stribog512)");
    }

    /** The name LUKS headers and cryptsetup use. */
    public String luksName() {
        return luksName;
    }

    /** The digest's length in bytes. */
    public int length() {
        return length;
    }

    /** A fresh message digest. */
    public HashFunction newHash() {
        if (jdkName != null) {
            MessageDigest md = jdk(jdkName);
            return new HashFunction() {
                @Override public void update(byte[] b, int off, int len) { md.update(b, off, len); }
                @Override public void doFinal(byte[] out, int off) {
                    try {
                        md.digest(out, off, length);
                    } catch (java.security.DigestException e) {
                        throw new IllegalStateException(e);
                    }
                }
                @Override public int length() { return length; }
            };
        }
        Digest d = bcDigest();
        return new HashFunction() {
            @Override public void update(byte[] b, int off, int len) { d.update(b, off, len); }
            @Override public void doFinal(byte[] out, int off) { d.doFinal(out, off); }
            @Override public int length() { return length; }
        };
    }

    /** HMAC with this hash, keyed with {@code key} (any length, empty included). */
    Prf newHmac(byte[] key) {
        if (jdkName != null) {
            try {
                Mac mac = Mac.getInstance("Hmac" + jdkName.replace("-", ""));
                // HMAC zero-pads a short key to the block size, so the empty key and a single zero
                // byte are the same key; SecretKeySpec refuses an empty array.
                byte[] k = key.length == 0 ? new byte[1] : key;
                SecretKeySpec spec = new SecretKeySpec(k, mac.getAlgorithm());
                mac.init(spec);
                return new Prf() {
                    @Override public void update(byte[] b, int off, int len) { mac.update(b, off, len); }
                    @Override public void doFinal(byte[] out, int off) {
                        try {
                            mac.doFinal(out, off);
                        } catch (javax.crypto.ShortBufferException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    @Override public int length() { return length; }
                };
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("The JDK lacks Hmac" + jdkName, e);
            }
        }
        HMac mac = new HMac(bcDigest());
        mac.init(new KeyParameter(key));
        return new Prf() {
            @Override public void update(byte[] b, int off, int len) { mac.update(b, off, len); }
            @Override public void doFinal(byte[] out, int off) { mac.doFinal(out, off); }
            @Override public int length() { return length; }
        };
    }

    /** Bouncy Castle's digest for a hash the JDK lacks (HMAC takes each one's block size from it). */
    private Digest bcDigest() {
        return switch (this) {
            case RIPEMD160 -> new RIPEMD160Digest();
            case WHIRLPOOL -> new WhirlpoolDigest();
            case BLAKE2S_256 -> new Blake2sDigest(256);
            case STREEBOG512 -> new GOST3411_2012_512Digest();
            default -> throw new IllegalStateException(luksName + " is a JDK hash");
        };
    }

    private static MessageDigest jdk(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JDK lacks " + name, e);
        }
    }

    /** A running hash (one message at a time; {@code doFinal} resets it). */
    public interface HashFunction {
        void update(byte[] b, int off, int len);

        void doFinal(byte[] out, int off);

        int length();
    }

    /** A keyed pseudo-random function (HMAC); {@code doFinal} resets it for the next message. */
    interface Prf extends HashFunction {
    }
}
