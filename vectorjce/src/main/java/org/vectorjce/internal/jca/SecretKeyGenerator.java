package org.vectorjce.internal.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.KeyGeneratorSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** {@code KeyGenerator} for AES, Twofish and Serpent: 128, 192 or 256 random bits (default 256). */
public final class SecretKeyGenerator extends KeyGeneratorSpi {
    private final String algorithm;
    private int bits = 256;
    private SecureRandom random;

    public SecretKeyGenerator(String algorithm) {
        this.algorithm = algorithm;
    }

    @Override
    protected void engineInit(SecureRandom random) {
        this.random = random;
    }

    @Override
    protected void engineInit(AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidAlgorithmParameterException {
        throw new InvalidAlgorithmParameterException(algorithm + " key generation takes no parameters");
    }

    @Override
    protected void engineInit(int keysize, SecureRandom random) {
        if (keysize != 128 && keysize != 192 && keysize != 256) {
            throw new InvalidParameterException("Invalid " + algorithm + " key size " + keysize
                    + " bits; allowed: 128, 192, 256");
        }
        this.bits = keysize;
        this.random = random;
    }

    @Override
    protected SecretKey engineGenerateKey() {
        if (random == null) {
            random = new SecureRandom();
        }
        byte[] k = new byte[bits / 8];
        random.nextBytes(k);
        try {
            return new SecretKeySpec(k, algorithm);
        } finally {
            java.util.Arrays.fill(k, (byte) 0);
        }
    }
}
