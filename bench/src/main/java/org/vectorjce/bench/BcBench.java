package org.vectorjce.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Bouncy Castle's JCA provider: AES, Twofish and Serpent ({@code SerpentEngine}) in ECB, CBC and CTR (its JCA provider has no LRW
 * or XTS).
 */
@State(Scope.Thread)
public class BcBench extends CipherBench {
    @Param("BC")
    public String provider;

    @Param({"AES", "Twofish", "Serpent"})
    public String algorithm;

    @Param({"ECB", "CBC", "CTR"})
    public String mode;

    @Param({"ENCRYPT", "DECRYPT"})
    public String direction;

    @Param({"128", "192", "256"})
    public int keyBits;

    @Param({"16", "64", "256", "1024", "8192", "1048576"})
    public int size;

    @Override
    protected Spec spec() {
        return new Spec(provider, algorithm, "-", mode, direction, keyBits, size);
    }
}
