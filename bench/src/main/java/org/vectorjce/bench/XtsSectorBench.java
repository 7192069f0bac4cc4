package org.vectorjce.bench;

import java.security.GeneralSecurityException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * XTS as a disk encryptor uses it: one operation = {@code init} with the same key and the next
 * sector's tweak, then {@code doFinal} of one data unit. Amazon Corretto Crypto Provider needs this:
 * its XTS cipher refuses a second {@code doFinal} without a fresh {@code init}, and an {@code init}
 * with the tweak it just used, so it cannot be timed by {@link CipherBench}; tweaks rotate over 64
 * random values. ACCP 2.5 takes only 64-byte keys
 * (AES-256-XTS). VectorJCE runs its default kernel.
 */
@State(Scope.Thread)
public class XtsSectorBench extends BenchBase {
    @Param({"VectorJCE", "ACCP"})
    public String provider;

    @Param("AES")
    public String algorithm;

    @Param("XTS")
    public String mode;

    @Param({"ENCRYPT", "DECRYPT"})
    public String direction;

    @Param("256")
    public int keyBits;

    @Param({"16", "64", "256", "512", "1024", "4096", "8192", "1048576"})
    public int size;

    @Override
    protected Spec spec() {
        return new Spec(provider, algorithm, provider.equals("VectorJCE") ? "default" : "-", mode, direction,
                keyBits, size);
    }

    @Override
    protected boolean initPerOperation() {
        return true;
    }

    @Benchmark
    public int initDoFinal() throws GeneralSecurityException {
        int i = next;
        next = (i + 1) & (INPUTS - 1);
        init();
        return cipher.doFinal(inputs[i], 0, size, out, 0);
    }
}
