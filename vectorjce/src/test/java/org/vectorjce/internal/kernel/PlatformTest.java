package org.vectorjce.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The CPU-fact decisions, from fake OS texts: the machine running the test does not matter. */
class PlatformTest {
    private static final String LINUX = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9R14\n"
            + "flags\t\t: fpu sse2 avx2 avx512f avx512bw avx512vbmi gfni vaes\n\nprocessor\t: 1\n"
            + "model name\t: AMD EPYC 9R14\nflags\t\t: fpu sse2 avx2 avx512f avx512bw avx512vbmi gfni vaes\n";
    private static final String LINUX_NO_VBMI = "model name\t: Intel Xeon\nflags\t\t: fpu avx2 avx512f avx512bw\n";
    private static final String MAC = "Intel(R) Core(TM) i9-10910 CPU @ 3.60GHz\nFPU VME SSE2 AVX1.0\n"
            + "RDWRFSGS AVX2 AVX512F AVX512BW AVX512VBMI\n";

    @Test
    void linuxProcCpuinfo() {
        Platform.CpuFacts f = Platform.parse(LINUX, null, "amd64");
        assertEquals("AMD EPYC 9R14", f.model());
        assertEquals(new Platform.Feature(true, true, "/proc/cpuinfo"), f.feature("avx512vbmi"));
        assertEquals(new Platform.Feature(false, true, "/proc/cpuinfo"), f.feature("avx512ifma"));
        assertFalse(Platform.parse(LINUX_NO_VBMI, null, "amd64").feature("avx512vbmi").present());
    }

    @Test
    void sunJceEcbStubOnlyWithAvx512Vaes() {
        String zen4 = "model name\t: AMD EPYC 9R14\nflags\t\t: fpu avx2 avx512f avx512dq avx512bw avx512vl vaes\n";
        String avx2 = "model name\t: AMD EPYC\nflags\t\t: fpu avx2 aes vaes vpclmulqdq\n";
        Platform.CpuFacts full = Platform.parse(zen4, null, "amd64");
        assertEquals(null, Platform.ecbStubProblem(full, "amd64", true, () -> "3"));
        assertEquals(null, Platform.ecbStubProblem(full, "amd64", false, () -> "3"));
        assertEquals("UseAVX is 2", Platform.ecbStubProblem(full, "amd64", false, () -> "2"));
        assertEquals(null, Platform.ecbStubProblem(full, "amd64", false, () -> null), "unreadable: as before");
        assertEquals("the CPU has no avx512vl (from /proc/cpuinfo)",
                Platform.ecbStubProblem(Platform.parse(avx2, null, "amd64"), "amd64", true, () -> "2"));
        assertEquals(null, Platform.ecbStubProblem(Platform.parse(avx2, null, "aarch64"), "aarch64", true, () -> null));
        assertEquals(null, Platform.ecbStubProblem(Platform.parse(null, null, "amd64"), "amd64", true, () -> null),
                "no OS facts: ECB as before");
    }

    @Test
    void macSysctl() {
        Platform.CpuFacts f = Platform.parse(null, MAC, "x86_64");
        assertEquals("Intel(R) Core(TM) i9-10910 CPU @ 3.60GHz", f.model());
        Platform.Feature v = f.feature("avx512vbmi");
        assertTrue(v.present() && v.known(), v.toString());
        assertTrue(f.feature("avx1_0").present(), "dots become underscores");
        assertFalse(f.feature("avx512vnni").present());
    }

    @Test
    void noOsFactsMeansUnknownNotAbsent() {
        Platform.Feature v = Platform.parse(null, null, "amd64").feature("avx512vbmi");
        assertFalse(v.known(), "unknown: the caller measures");
        assertFalse(v.present());
        // /proc/cpuinfo without a flags line (some emulators) is no answer either
        assertFalse(Platform.parse("processor : 0\n", null, "amd64").feature("avx512vbmi").known());
    }

    @Test
    void measuredPermuteThreshold() {
        assertTrue(Platform.permuteLooksNative(1.0));
        assertTrue(Platform.permuteLooksNative(2.4));
        assertFalse(Platform.permuteLooksNative(2.5));
        assertFalse(Platform.permuteLooksNative(8.0));
        assertFalse(Platform.permuteLooksNative(0), "a failed measurement is not a yes");
    }

    /** The JVM-flag shortcut: only a fully visible command line without the words may skip JMX. */
    @Test
    void flagsAtDefaultsOnlyWhenNothingCouldHideThem() {
        java.util.Map<String, String> none = java.util.Map.of();
        String plain = String.join("\u0000", "java", "--add-modules", "jdk.incubator.vector", "-jar", "app.jar", "run");
        assertTrue(Platform.flagsAtDefaults(plain, none, "AES"));
        assertFalse(Platform.flagsAtDefaults(null, none, "AES"), "command line not visible (not Linux)");
        assertFalse(Platform.flagsAtDefaults(plain.replace("run", "-XX:-UseAES"), none, "AES"));
        assertFalse(Platform.flagsAtDefaults(String.join("\u0000", "java", "@opts.txt", "-jar", "a.jar"), none, "AES"),
                "an argument file may hold flags");
        assertFalse(Platform.flagsAtDefaults(String.join("\u0000", "java", "-XX:Flags=my.flags", "Main"), none, "AES"));
        assertFalse(Platform.flagsAtDefaults(String.join("\u0000", "java", "-XX:VMOptionsFile=f", "Main"), none, "AES"));
        assertFalse(Platform.flagsAtDefaults(plain, java.util.Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g -XX:-UseAESIntrinsics"), "AES"));
        assertFalse(Platform.flagsAtDefaults(plain, java.util.Map.of("JDK_JAVA_OPTIONS", "-XX:TieredStopAtLevel=1"), "Tiered"));
        assertTrue(Platform.flagsAtDefaults(plain, java.util.Map.of("_JAVA_OPTIONS", "-Xmx2g"), "AES", "Tiered"));
        // The program's own arguments after the main class are not JVM flags, but a word there
        // only costs the exact (slower) path: still correct.
        assertFalse(Platform.flagsAtDefaults(plain.replace("run", "AES"), none, "AES"));
    }
}
