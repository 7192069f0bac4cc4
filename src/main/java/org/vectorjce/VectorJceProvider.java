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

    public VectorJceProvider() {
        super(NAME, VERSION, "VectorJCE " + VERSION
                + ": AES and Twofish in ECB, CBC, CTR, LRW and XTS (pure Java, Vector API kernels)");
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
}
