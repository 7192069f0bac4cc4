package org.vectorjce.tool.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code java -jar vectorjce-tool-all.jar selftest} and {@code info} on this JVM (JDK 25, and JDK 17). */
class SelftestIT {
    @Test
    void selftestPassesFromTheJar() throws Exception {
        Jvms.Result r = Jvms.run(Jvms.thisJava(), List.of("--add-modules", "jdk.incubator.vector",
                "-jar", Jvms.jar().toString(), "selftest"));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().matches("(?s).*\\n\\d+ passed, 0 failed\\s*"), r.out());
    }

    /** On JDK 17-24 info says why the vector kernels are absent; on 25 they are there. */
    @Test
    void infoTellsWhatThisJdkGets() throws Exception {
        Jvms.Result r = Jvms.run(Jvms.thisJava(), List.of("--add-modules", "jdk.incubator.vector",
                "-jar", Jvms.jar().toString(), "info"));
        assertEquals(0, r.exit(), r.out());
        if (Jvms.thisFeature() < 25) {
            assertTrue(r.out().contains("needs Java 25 or newer"), r.out());
            assertTrue(r.out().contains("Twofish kernel:   twofish-table"), r.out());
        } else {
            assertTrue(r.out().contains("vector module:   present\n"), r.out());
        }
    }

    /**
     * Where C2 cannot give the Vector API 128-bit byte shuffles (x86 with {@code -XX:UseSSE=3}),
     * {@code twofish-vec128-ct} declines and {@code info} says why, instead of running boxed (it
     * ran at 0 MB/s, allocating 85 MB per 8 KiB call, when it did not).
     */
    @Test
    void theConstantTime128BitKernelDeclinesWithoutSse41() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Jvms.thisFeature() >= 25, "vector code needs Java 25");
        String arch = System.getProperty("os.arch");
        org.junit.jupiter.api.Assumptions.assumeTrue(arch.equals("amd64") || arch.equals("x86_64"), "x86 only");
        Jvms.Result r = Jvms.run(Jvms.thisJava(), List.of("--add-modules", "jdk.incubator.vector",
                "-XX:UseAVX=0", "-XX:UseSSE=3", "-jar", Jvms.jar().toString(), "info"));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("twofish-vec128-ct        [ct]  declined: -XX:UseSSE=3:"), r.out());
        r = Jvms.run(Jvms.thisJava(), List.of("--add-modules", "jdk.incubator.vector",
                "-XX:UseAVX=0", "-jar", Jvms.jar().toString(), "info"));
        assertTrue(r.out().contains("twofish-vec128-ct        [ct]  available"), r.out());
    }

    /** Under failsafe the provider's classes come from its packaged jar, not target/classes. */
    @Test
    void providerComesFromTheJar() {
        String where = String.valueOf(org.vectorjce.VectorJceProvider.class.getProtectionDomain().getCodeSource().getLocation());
        assertTrue(where.endsWith(".jar"), "provider loaded from " + where);
    }
}
