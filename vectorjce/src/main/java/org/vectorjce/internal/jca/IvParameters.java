package org.vectorjce.internal.jca;

import java.io.IOException;
import java.security.AlgorithmParameters;
import java.security.AlgorithmParametersSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.HexFormat;
import javax.crypto.spec.IvParameterSpec;
import org.vectorjce.SectorParameterSpec;

/**
 * {@code AlgorithmParameters} for the IV of every VectorJCE transformation ("AES", "Twofish",
 * "Serpent"),
 * so {@code getParameters()} works without SunJCE (which has no Twofish parameters). Encoding: a
 * DER OCTET STRING holding the IV, as SunJCE's block-cipher IV parameters.
 */
public final class IvParameters extends AlgorithmParametersSpi {
    private byte[] iv;
    /** Set instead of {@link #iv} for a cipher initialised with a {@link SectorParameterSpec}. */
    private SectorParameterSpec sectors;

    /** Initialised parameters holding a {@link SectorParameterSpec} (no ASN.1 encoding). */
    static AlgorithmParameters of(String algorithm, SectorParameterSpec spec, java.security.Provider provider) {
        AlgorithmParameters p = new AlgorithmParameters(new IvParameters(), provider, algorithm) { };
        try {
            p.init(spec);
        } catch (InvalidParameterSpecException e) {
            throw new AssertionError(e);
        }
        return p;
    }

    /** Initialised parameters holding {@code iv}, for {@code Cipher.getParameters()}. */
    static AlgorithmParameters of(String algorithm, byte[] iv, java.security.Provider provider) {
        AlgorithmParameters p = new AlgorithmParameters(new IvParameters(), provider, algorithm) { };
        try {
            p.init(new IvParameterSpec(iv));
        } catch (InvalidParameterSpecException e) {
            throw new AssertionError(e);
        }
        return p;
    }

    @Override
    protected void engineInit(AlgorithmParameterSpec spec) throws InvalidParameterSpecException {
        if (spec instanceof SectorParameterSpec s) {
            sectors = s;
            return;
        }
        if (!(spec instanceof IvParameterSpec ivSpec)) {
            throw new InvalidParameterSpecException("IvParameterSpec or SectorParameterSpec required");
        }
        iv = ivSpec.getIV();
    }

    @Override
    protected void engineInit(byte[] params) throws IOException {
        // DER OCTET STRING: 0x04, length (short form), bytes.
        if (params == null || params.length < 2 || params[0] != 0x04 || (params[1] & 0xff) != params.length - 2) {
            throw new IOException("IV parameters must be a DER OCTET STRING");
        }
        iv = java.util.Arrays.copyOfRange(params, 2, params.length);
    }

    @Override
    protected void engineInit(byte[] params, String format) throws IOException {
        if (format != null && !format.equalsIgnoreCase("ASN.1") && !format.equalsIgnoreCase("DER")) {
            throw new IOException("Unsupported format " + format);
        }
        engineInit(params);
    }

    @Override
    protected <T extends AlgorithmParameterSpec> T engineGetParameterSpec(Class<T> spec)
            throws InvalidParameterSpecException {
        if (sectors != null) {
            if (spec.isAssignableFrom(SectorParameterSpec.class)) {
                return spec.cast(sectors);
            }
            throw new InvalidParameterSpecException("These parameters hold a SectorParameterSpec, not a " + spec.getName());
        }
        if (spec.isAssignableFrom(IvParameterSpec.class)) {
            return spec.cast(new IvParameterSpec(iv));
        }
        throw new InvalidParameterSpecException("Only IvParameterSpec is supported");
    }

    @Override
    protected byte[] engineGetEncoded() throws IOException {
        if (sectors != null) {
            throw new IOException("A SectorParameterSpec has no ASN.1 encoding");
        }
        byte[] e = new byte[iv.length + 2];
        e[0] = 0x04;
        e[1] = (byte) iv.length;
        System.arraycopy(iv, 0, e, 2, iv.length);
        return e;
    }

    @Override
    protected byte[] engineGetEncoded(String format) throws IOException {
        return engineGetEncoded();
    }

    @Override
    protected String engineToString() {
        if (sectors != null) {
            return sectors.toString();
        }
        // The IV is not secret: SunJCE prints it too.
        return "IV: " + HexFormat.of().formatHex(iv);
    }
}
