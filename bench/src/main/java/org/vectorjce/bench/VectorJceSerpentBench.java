package org.vectorjce.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * VectorJCE Serpent in every mode, per kernel. Plain JMH runs the {@code default} kernel only, which runs
 * on any machine; {@link Run} (or {@code -p kernel=NAME,...}) adds the kernels available on the
 * machine, each set by name through a provider configured with {@code kernel.serpent=NAME}.
 */
@State(Scope.Thread)
public class VectorJceSerpentBench extends CipherBench {
    @Param("VectorJCE")
    public String provider;

    @Param("Serpent")
    public String algorithm;

    /** {@code default}: the provider's own choice; any other value: that kernel, forced by name. */
    @Param({"default"})
    public String kernel;

    @Param({"ECB", "CBC", "CTR", "LRW", "XTS"})
    public String mode;

    @Param({"ENCRYPT", "DECRYPT"})
    public String direction;

    @Param({"128", "192", "256"})
    public int keyBits;

    @Param({"16", "64", "256", "1024", "8192", "1048576"})
    public int size;

    @Override
    protected Spec spec() {
        return new Spec(provider, algorithm, kernel, mode, direction, keyBits, size);
    }
}
