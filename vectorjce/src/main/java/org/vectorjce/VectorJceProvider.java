package org.vectorjce;

import java.security.Provider;
import java.util.List;
import java.util.Map;
import org.vectorjce.internal.jca.IvParameters;
import org.vectorjce.internal.jca.SecretKeyGenerator;
import org.vectorjce.internal.jca.VectorJceCipher;
import org.vectorjce.internal.mode.BlockPasses;
import org.vectorjce.internal.registry.Kernels;
import org.vectorjce.internal.registry.Settings;

/**
 * The VectorJCE provider: AES, Twofish and Serpent in ECB, CBC (NoPadding, PKCS5Padding), CTR, LRW
 * and XTS.
 *
 * <p>Register it with {@code Security.addProvider(new VectorJceProvider())}, with a
 * {@code security.provider.N=VectorJCE} line in {@code java.security} (found by ServiceLoader), or
 * pass an instance to {@code Cipher.getInstance}. Key and IV layouts are in the README.
 *
 * <p><b>Configuration.</b> Every setting belongs to a provider instance: {@link #configure} gives a
 * new instance with {@code key=value} settings (the same text a {@code java.security} line takes
 * after the name), and every cipher made by an instance follows that instance's settings. The
 * keys: {@code kernel.aes}, {@code kernel.twofish}, {@code kernel.serpent} (a kernel name), {@code constantTime}
 * ({@code true|false}), {@code arithmetic} ({@code auto|vector|scalar}), {@code twofish16.path}
 * ({@code auto|split|fused}); docs/kernels.md explains each. Their defaults come from the system
 * properties {@code vectorjce.kernel.aes}, … ({@code vectorjce.} and the key), read once per JVM.
 * The provider starts no thread and keeps no state across instances but what the JVM's JIT keeps.
 */
public final class VectorJceProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider name used in {@code getInstance(..., "VectorJCE")}. */
    public static final String NAME = "VectorJCE";
    /** The provider version string. */
    public static final String VERSION = "0.1.0";

    private static final String[] ALGORITHMS = {"AES", "Twofish", "Serpent"};

    /** This instance's settings. */
    private final transient Settings settings;

    /** The provider with the defaults: the system properties {@code vectorjce.*}, else the built-in ones. */
    public VectorJceProvider() {
        this(Settings.DEFAULTS);
    }

    private VectorJceProvider(Settings settings) {
        super(NAME, VERSION, "VectorJCE " + VERSION
                + ": AES, Twofish and Serpent in ECB, CBC, CTR, LRW and XTS (pure Java, Vector API kernels)"
                + (settings.toString().isEmpty() ? "" : "; " + settings));
        this.settings = settings;
        for (String alg : ALGORITHMS) {
            List<String> aliases = alg.equals("AES") ? List.of("Rijndael") : List.of();
            putService(new Service(this, "Cipher", alg, VectorJceCipher.class.getName(), aliases, Map.of(
                    "SupportedModes", "ECB|CBC|CTR|LRW|XTS",
                    "SupportedPaddings", "NOPADDING|PKCS5PADDING",
                    "SupportedKeyFormats", "RAW")) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new VectorJceCipher(alg, settings, VectorJceProvider.this);
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
     * A provider with this one's settings changed by {@code configArg}, as {@code java.security}'s
     * {@code security.provider.N=VectorJCE constantTime=true} does. {@code configArg} is
     * {@code key=value} pairs separated by spaces or commas, keys ignoring case:
     * <ul>
     *   <li>{@code constantTime=true}: the constant-time policy — only kernels whose block function
     *       is constant-time, short calls padded into vector batches, never a table-lookup
     *       fallback; {@code init} fails with an {@code InvalidKeyException} naming the reason
     *       where no such kernel runs;</li>
     *   <li>{@code kernel.aes=NAME}, {@code kernel.twofish=NAME}, {@code kernel.serpent=NAME}: every
     *       key gets that kernel
     *       ({@code init} fails where it does not run here); empty for the best available;</li>
     *   <li>{@code arithmetic=auto|vector|scalar}: the modes' XOR and tweak passes;</li>
     *   <li>{@code twofish16.path=auto|split|fused}: {@code twofish-vec512-16way}'s batch.</li>
     * </ul>
     *
     * @param configArg the settings; {@code null} or empty for this provider's settings unchanged
     * @return a new provider instance so configured; this one is unchanged
     * @throws java.security.InvalidParameterException for an unknown key, a pair without {@code =}
     *     or a bad value (the message says which)
     */
    @Override
    public VectorJceProvider configure(String configArg) {
        try {
            return new VectorJceProvider(settings.apply(configArg));
        } catch (IllegalArgumentException e) {
            throw new java.security.InvalidParameterException("VectorJCE configuration '" + configArg + "': "
                    + e.getMessage());
        }
    }

    @Override
    public boolean isConfigured() {
        return true;
    }

    /**
     * Whether this instance enforces the constant-time policy.
     *
     * @return {@code true} for an instance with {@code constantTime=true}
     */
    public boolean isConstantTime() {
        return settings.constantTime();
    }

    /**
     * This instance's settings, every key with its value (an empty kernel name: the best available).
     *
     * @return key to value, in a fixed order
     */
    public Map<String, String> settings() {
        return settings.asMap();
    }

    /**
     * The kernel a key of {@code algorithm} gets from this provider now.
     *
     * @param algorithm {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}
     * @return the kernel's name, e.g. {@code twofish-vec512-16way}
     * @throws IllegalArgumentException where the settings name a kernel that does not run here, or
     *     the constant-time policy finds none (the message says why)
     */
    public String kernelFor(String algorithm) {
        return Kernels.select(algorithm, settings).name();
    }

    /**
     * The mode arithmetic this provider's XTS, LRW, CTR and CBC ciphers use, and why.
     *
     * @return e.g. {@code vector-512} or {@code scalar (arithmetic=scalar)}
     */
    public String arithmetic() {
        return BlockPasses.describe(settings.arithmetic());
    }

    /**
     * Which batch {@code twofish-vec512-16way} serves for this provider's keys.
     *
     * @return a line saying split or fused and why; {@code null} where that kernel does not run
     */
    public String twofishBatch() {
        return Kernels.twofishBatch(settings);
    }

    /** This provider's settings, for code in this module that builds ciphers below the JCA. */
    Settings internalSettings() {
        return settings;
    }
}
