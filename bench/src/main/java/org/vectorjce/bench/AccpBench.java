package org.vectorjce.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Amazon Corretto Crypto Provider 2.5 (AWS-LC, native): AES/CBC. ACCP 2.5 has no ECB or CTR
 * for AES. Its XTS needs an {@code init} per {@code doFinal}: see {@link XtsSectorBench}.
 */
@State(Scope.Thread)
public class AccpBench extends CipherBench {
    @Param("ACCP")
    public String provider;

    @Param("AES")
    public String algorithm;

    @Param({"CBC"})
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
