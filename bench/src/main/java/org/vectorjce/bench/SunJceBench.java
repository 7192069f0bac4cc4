package org.vectorjce.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * SunJCE (the JDK): AES in ECB, CBC and CTR. It has no Twofish, LRW or XTS.
 */
@State(Scope.Thread)
public class SunJceBench extends CipherBench {
    @Param("SunJCE")
    public String provider;

    @Param("AES")
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
