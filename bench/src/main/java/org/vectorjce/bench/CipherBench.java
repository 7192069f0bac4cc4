package org.vectorjce.bench;

import java.security.GeneralSecurityException;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * One operation = one {@code Cipher.doFinal} of {@code size} bytes on a cipher initialised in
 * set-up, into a preallocated output array, cycling over the rotating inputs. (A JCA cipher is back
 * in its initialised state after {@code doFinal}, with the same key and IV.)
 *
 * <p>Subclasses hold the {@code @Param} fields: one class per provider (and per algorithm for
 * VectorJCE, whose {@code kernel} values are per algorithm), so that JMH's cross product of
 * parameters never contains a transformation the provider lacks. Run them through {@link Run}.
 */
public abstract class CipherBench extends BenchBase {
    @Benchmark
    public int doFinal() throws GeneralSecurityException {
        int i = next;
        next = (i + 1) & (INPUTS - 1);
        return cipher.doFinal(inputs[i], 0, size, out, 0);
    }
}
