package org.vectorjce;

import java.security.Provider;
import java.util.List;
import java.util.Map;
import org.vectorjce.internal.jca.IvParameters;
import org.vectorjce.internal.jca.SecretKeyGenerator;
import org.vectorjce.internal.jca.VectorJceCipher;

/**
 * The VectorJCE provider: AES and Twofish in ECB, CBC (NoPadding, PKCS5Padding), CTR, LRW and XTS.
 *
 * <p>Register it with {@code Security.addProvider(new VectorJceProvider())}, with a
 * {@code security.provider.N=VectorJCE} line in {@code java.security} (found by ServiceLoader), or
 * pass an instance to {@code Cipher.getInstance}. Key and IV layouts are in the README.
 */
public final class VectorJceProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider name used in {@code getInstance(..., "VectorJCE")}. */
    public static final String NAME = "VectorJCE";
    /** The provider version string. */
    public static final String VERSION = "0.1.0";

    private static final String[] ALGORITHMS = {"AES", "Twofish"};

    /** Whether this instance enforces the constant-time policy (see {@link #configure}). */
    private final boolean constantTime;

    /**
     * The provider with the constant-time policy off (unless the system property
     * {@code vectorjce.constantTime=true} turns it on); {@link #configure} gives one with it on.
     */
    public VectorJceProvider() {
        this(false);
    }

    private VectorJceProvider(boolean constantTime) {
        super(NAME, VERSION, "VectorJCE " + VERSION
                + ": AES and Twofish in ECB, CBC, CTR, LRW and XTS (pure Java, Vector API kernels)"
                + (constantTime ? "; constant-time policy" : ""));
        this.constantTime = constantTime;
        for (String alg : ALGORITHMS) {
            List<String> aliases = alg.equals("AES") ? List.of("Rijndael") : List.of();
            putService(new Service(this, "Cipher", alg, VectorJceCipher.class.getName(), aliases, Map.of(
                    "SupportedModes", "ECB|CBC|CTR|LRW|XTS",
                    "SupportedPaddings", "NOPADDING|PKCS5PADDING",
                    "SupportedKeyFormats", "RAW")) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new VectorJceCipher(alg, VectorJceProvider.this);
                }
            });
            putService(new Service(this, "KeyGenerator", alg, SecretKeyGenerator.class.getName(), aliases, null) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new SecretKeyGenerator(alg);
                }
            });
            putService(new Service(this, "AlgorithmParameters", alg, IvParameters.class.getName(), aliases, null) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new IvParameters();
                }
            });
        }
    }

    /**
     * A provider configured by {@code configArg}, as {@code java.security}'s
     * {@code security.provider.N=VectorJCE constantTime=true} does: {@code constantTime=true} (or
     * {@code false}) turns the constant-time policy on for ciphers from the returned instance —
     * only kernels whose block function is constant-time, short calls padded into vector batches,
     * never a table-lookup fallback; {@code init} fails with an {@code InvalidKeyException} naming
     * the reason where no such kernel runs. The system property {@code vectorjce.constantTime=true}
     * turns it on for every instance.
     *
     * @param configArg {@code constantTime=true} or {@code constantTime=false} (case and spaces
     *     ignored); {@code null} or empty for the default, the policy off
     * @return a new provider instance so configured; this one is unchanged
     * @throws java.security.InvalidParameterException for any other argument
     */
    @Override
    public Provider configure(String configArg) {
        String a = configArg == null ? "" : configArg.trim().replace(" ", "");
        switch (a.toLowerCase(java.util.Locale.ROOT)) {
            case "constanttime=true":
                return new VectorJceProvider(true);
            case "constanttime=false", "":
                return new VectorJceProvider(false);
            default:
                throw new java.security.InvalidParameterException("VectorJCE configuration '" + configArg
                        + "': the one option is constantTime=true|false");
        }
    }

    @Override
    public boolean isConfigured() {
        return true;
    }

    /**
     * Whether this instance enforces the constant-time policy (from {@link #configure}).
     *
     * @return {@code true} for an instance configured with {@code constantTime=true}; the system
     *     property {@code vectorjce.constantTime} is not reflected here
     */
    public boolean isConstantTime() {
        return constantTime;
    }
}
