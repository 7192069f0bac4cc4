package org.vectorjce.internal.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Facts about the running JVM and CPU that kernel selection and {@code info} need, read without
 * touching {@code jdk.incubator.vector} classes.
 */
public final class Platform {
    private Platform() {
    }

    private static final String C2_STATUS = readC2Status();

    /**
     * {@code null} when C2 (the optimising JIT) compiles hot code, else why not. Without C2 the
     * Vector API is interpreted or C1-compiled and far slower than scalar code, so vector kernels
     * decline. Read from {@code java.vm.info} and the HotSpot flags where {@code jdk.management} is
     * present.
     */
    public static String c2Unavailable() {
        return C2_STATUS;
    }

    private static String readC2Status() {
        String info = System.getProperty("java.vm.info", "");
        if (info.contains("interpreted mode")) {
            return "the JVM runs interpreted (-Xint)";
        }
        if (info.contains("emulated-client")) {
            return "C2 is off (emulated client VM)";
        }
        if (JvmArgs.AT_DEFAULTS_FOR_JIT) {
            return null; // no JIT flag given anywhere: HotSpot's default, tiered up to C2
        }
        String tiered = vmOption("TieredCompilation"), stop = vmOption("TieredStopAtLevel");
        try {
            if (Boolean.parseBoolean(tiered) && stop != null && Integer.parseInt(stop) < 4) {
                return "C2 is off (-XX:TieredStopAtLevel=" + stop + ")";
            }
        } catch (NumberFormatException e) {
            // unreadable: trust java.vm.info alone
        }
        return null; // or jdk.management absent: trust java.vm.info alone
    }

    /**
     * Whether this JVM's HotSpot flags that mention any of {@code words} are certainly at their
     * defaults: true only when the whole command line is known ({@code /proc/self/cmdline}) and
     * neither it nor the environment's option variables ({@code JAVA_TOOL_OPTIONS},
     * {@code JDK_JAVA_OPTIONS}, {@code _JAVA_OPTIONS}) mention them, and no argument file or flags
     * file could hide them. Then the answer needs no {@code HotSpotDiagnosticMXBean}, whose
     * loading adds milliseconds to a fresh JVM's first AES operation; otherwise callers read the
     * flags through it, exactly.
     */
    static boolean flagsAtDefaults(String cmdline, java.util.Map<String, String> env, String... words) {
        if (cmdline == null) {
            return false;
        }
        java.util.List<String> args = new java.util.ArrayList<>(java.util.Arrays.asList(cmdline.split("\u0000")));
        for (String v : new String[] {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"}) {
            String e = env.get(v);
            if (e != null) {
                args.addAll(java.util.Arrays.asList(e.trim().split("\\s+")));
            }
        }
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("@") || a.contains("Flags=") || a.contains("VMOptionsFile")) {
                return false; // options we cannot see from here
            }
            for (String w : words) {
                if (a.contains(w)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The JVM's own arguments, read once where the OS shows them (Linux). */
    private static final class JvmArgs {
        static final String CMDLINE = read();
        static final boolean AT_DEFAULTS_FOR_JIT = flagsAtDefaults(CMDLINE, System.getenv(),
                "Tiered", "-Xint", "-Xcomp", "UseCompiler", "CompilationMode", "-client", "EnableJVMCI", "C1");
        static final boolean AT_DEFAULTS_FOR_AES = flagsAtDefaults(CMDLINE, System.getenv(), "AES");
        static final boolean AT_DEFAULTS_FOR_SSE = flagsAtDefaults(CMDLINE, System.getenv(), "UseSSE");
        static final boolean AT_DEFAULTS_FOR_AVX = flagsAtDefaults(CMDLINE, System.getenv(), "UseAVX");

        private static String read() {
            try {
                Path p = Path.of("/proc/self/cmdline");
                return Files.isReadable(p) ? new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.UTF_8) : null;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }

    /**
     * Whether the JVM uses the CPU's AES instructions ({@code UseAES}; SunJCE's intrinsics follow
     * it): {@code TRUE}/{@code FALSE} with how it was known, decided once. Where no flag mentions
     * AES and the CPU lists AES (/proc/cpuinfo, sysctl), HotSpot's default is on; otherwise the
     * flags are read.
     */
    public static String[] aesInstructions() {
        return AesFact.VALUE;
    }

    private static final class AesFact {
        static final String[] VALUE = decide();

        private static String[] decide() {
            Feature aes = cpuFeature("aes");
            if (aes.known() && !aes.present()) {
                return new String[] {"false", "the CPU lacks AES instructions (from " + aes.source() + ")"};
            }
            if (aes.known() && JvmArgs.AT_DEFAULTS_FOR_AES) {
                return new String[] {"true", "CPU AES from " + aes.source() + ", no AES flag on the command line"};
            }
            // UseAESIntrinsics is a diagnostic flag, readable only with -XX:+UnlockDiagnosticVMOptions;
            // otherwise the product flag UseAES (which turns the intrinsics on by default on x86 and
            // AArch64) stands for it.
            for (String name : new String[] {"UseAESIntrinsics", "UseAES"}) {
                String v = vmOption(name);
                if (v != null) {
                    return new String[] {v, name + " is " + v};
                }
            }
            return new String[] {null, "UseAESIntrinsics/UseAES cannot be read (jdk.management absent or not HotSpot)"};
        }
    }

    /**
     * On x86, why HotSpot gives SunJCE's {@code AES/ECB} no multi-block stub here, or null where
     * it does or this cannot be told (other architectures, an OS that lists no CPU features).
     * HotSpot generates its ECB stubs only where AVX-512 VAES runs ({@code UseAVX} 3 and the CPU's
     * {@code vaes}, {@code avx512vl} and {@code avx512dq}; {@code StubGenerator::generate_aes_stubs}
     * in {@code stubGenerator_x86_64_aes.cpp}); elsewhere ECB is one single-block AES call per
     * block, while its CBC decryption stub decrypts four blocks at a time. Decided once.
     */
    public static String ecbStubUnavailable() {
        return EcbFact.VALUE;
    }

    private static final class EcbFact {
        // An anonymous class, not a lambda: no invokedynamic bootstrap on the first decryption.
        static final String VALUE = ecbStubProblem(CpuInfo.FACTS, System.getProperty("os.arch", ""),
                JvmArgs.AT_DEFAULTS_FOR_AVX, new java.util.function.Supplier<String>() {
                    @Override
                    public String get() {
                        return vmOption("UseAVX");
                    }
                });
    }

    /**
     * The decision of {@link #ecbStubUnavailable} from the CPU facts, the architecture, whether
     * {@code UseAVX} is at its default, and how to read it otherwise (testable with fake inputs).
     */
    static String ecbStubProblem(CpuFacts facts, String arch, boolean avxAtDefault,
            java.util.function.Supplier<String> useAvx) {
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return null;
        }
        for (String flag : new String[] {"vaes", "avx512vl", "avx512dq"}) {
            Feature f = facts.feature(flag);
            if (!f.known()) {
                return null;
            }
            if (!f.present()) {
                return "the CPU has no " + flag + " (from " + f.source() + ")";
            }
        }
        if (avxAtDefault) {
            return null; // UseAVX at its default: 3 on such a CPU
        }
        String v = useAvx.get();
        try {
            return v != null && Integer.parseInt(v) < 3 ? "UseAVX is " + v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * On x86, why C2 cannot give 16-lane byte shuffles ({@code pshufb}) to the Vector API here, or
     * null when it can (and on other architectures). It needs SSE4.1 and {@code UseSSE=4}, the
     * default on such CPUs; with {@code -XX:UseSSE=3} or less, {@code ByteVector.selectFrom} on
     * 128-bit vectors is not intrinsified and every vector is boxed: a kernel such as
     * {@code twofish-vec128-ct} then allocates on every operation and all but stops.
     */
    public static String byteShuffleUnavailable() {
        String arch = System.getProperty("os.arch", "");
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return null;
        }
        Feature f = cpuFeature("sse4_1");
        if (f.known() && !f.present()) {
            return "CPU lacks SSE4.1 (from " + f.source() + "): no intrinsified 128-bit byte shuffles";
        }
        if (f.known() && JvmArgs.AT_DEFAULTS_FOR_SSE) {
            return null;
        }
        String v = vmOption("UseSSE");
        if (v != null && Integer.parseInt(v) < 4) {
            return "-XX:UseSSE=" + v + ": C2 gives the Vector API 128-bit byte shuffles only at UseSSE=4";
        }
        return null;
    }

    /** A one-line description of the JIT for {@code info}. */
    public static String compilerDescription() {
        String why = c2Unavailable();
        return why == null ? "C2 in use" : why;
    }

    /**
     * Value of a HotSpot flag, or null where it cannot be read: through {@code jdk.management}'s
     * {@code HotSpotDiagnosticMXBean}, reached by reflection so that the provider depends on no
     * module but {@code java.base} (and the vector module), and works where the JDK has neither
     * {@code java.management} nor {@code jdk.management} (a jlink image without them, or a module
     * graph that does not resolve them).
     */
    public static String vmOption(String name) {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
            Object hs = factory.getMethod("getPlatformMXBean", Class.class).invoke(null, bean);
            if (hs == null) {
                return null;
            }
            Object option = bean.getMethod("getVMOption", String.class).invoke(hs, name);
            return (String) option.getClass().getMethod("getValue").invoke(option);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** The CPU model from {@code /proc/cpuinfo} or macOS's sysctl, or {@code os.arch}. */
    public static String cpuModel() {
        return CpuInfo.FACTS.model();
    }

    /**
     * A CPU feature as the operating system reports it, decided once per JVM: kernel selection asks
     * at every key set-up, and reading and splitting /proc/cpuinfo each time would cost more than
     * encrypting the sector the key is set up for. {@code known} is false where the OS gives no list
     * (Windows, other systems); the caller then decides another way and says so.
     */
    public record Feature(boolean present, boolean known, String source) {
    }

    /** Whether the CPU has {@code flag} (Linux /proc/cpuinfo names, e.g. {@code avx512vbmi}). */
    public static Feature cpuFeature(String flag) {
        return CpuInfo.FACTS.feature(flag);
    }

    /** What the OS says about the CPU: the model, the feature names, and where they came from. */
    record CpuFacts(String model, java.util.Set<String> flags, String source) {
        Feature feature(String flag) {
            if (source == null) {
                return new Feature(false, false, "not reported by this OS (" + System.getProperty("os.name") + ")");
            }
            return new Feature(flags.contains(flag), true, source);
        }
    }

    /**
     * The decision, from the texts the OS gives ({@code null} where absent), testable with fake
     * inputs: Linux's /proc/cpuinfo ({@code flags : ...}, {@code model name : ...}); macOS's
     * {@code sysctl -n machdep.cpu.brand_string machdep.cpu.features machdep.cpu.leaf7_features}
     * (upper-case names such as {@code AVX512VBMI}, mapped to Linux's lower-case ones).
     */
    static CpuFacts parse(String procCpuinfo, String sysctl, String arch) {
        if (procCpuinfo != null) {
            String model = arch;
            java.util.Set<String> flags = null;
            for (String l : procCpuinfo.split("\n")) {
                if (model.equals(arch) && l.startsWith("model name")) {
                    model = l.substring(l.indexOf(':') + 1).trim();
                } else if (flags == null && (l.startsWith("flags") || l.startsWith("Features"))) {
                    flags = new java.util.HashSet<>(java.util.Arrays.asList(l.substring(l.indexOf(':') + 1).trim().split("\\s+")));
                }
            }
            if (flags != null) {
                return new CpuFacts(model, flags, "/proc/cpuinfo");
            }
        }
        if (sysctl != null && !sysctl.isBlank()) {
            String[] lines = sysctl.strip().split("\n");
            java.util.Set<String> flags = new java.util.HashSet<>();
            for (int i = 1; i < lines.length; i++) {
                for (String f : lines[i].trim().split("\\s+")) {
                    flags.add(f.toLowerCase(java.util.Locale.ROOT).replace('.', '_'));
                }
            }
            return new CpuFacts(lines[0].trim(), flags, "sysctl machdep.cpu");
        }
        return new CpuFacts(arch, java.util.Set.of(), null);
    }

    /**
     * The measured fallback's threshold: a two-vector byte permute that costs less than 2.5 times
     * a dependent XOR + ADD pair is one instruction. With VBMI, {@code vpermi2b} has the latency of
     * about two simple ops; without it C2 emulates the permute with several shuffles and blends
     * (4-10x).
     */
    public static boolean permuteLooksNative(double permuteOverXorAdd) {
        return permuteOverXorAdd > 0 && permuteOverXorAdd < 2.5;
    }

    /** Read on first use (holder idiom: thread-safe, once). */
    private static final class CpuInfo {
        static final CpuFacts FACTS = read();

        private static CpuFacts read() {
            String proc = null, sysctl = null;
            try {
                Path p = Path.of("/proc/cpuinfo");
                if (Files.isReadable(p)) {
                    proc = Files.readString(p);
                }
            } catch (IOException | RuntimeException e) {
                // unreadable
            }
            if (proc == null && System.getProperty("os.name", "").startsWith("Mac")) {
                try {
                    Process pr = new ProcessBuilder("sysctl", "-n", "machdep.cpu.brand_string", "machdep.cpu.features",
                            "machdep.cpu.leaf7_features").redirectErrorStream(true).start();
                    pr.getOutputStream().close();
                    sysctl = new String(pr.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                    if (pr.waitFor() != 0) {
                        sysctl = null;
                    }
                } catch (IOException | RuntimeException e) {
                    // no sysctl
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (SystemProperties.IGNORE_CPU_FEATURES) {
                // Test switch: behave as on a system that reports no CPU features (the probe decides).
                return parse(null, null, System.getProperty("os.arch"));
            }
            return parse(proc, sysctl, System.getProperty("os.arch"));
        }
    }

    /** Preferred vector width in bits, or 0 when the vector module is absent. */
    public static int preferredVectorBits() {
        if (VectorBridge.vectorCodeUnavailable() != null) {
            return 0;
        }
        try {
            return VectorBridge.preferredBits();
        } catch (ReflectiveOperationException | LinkageError e) {
            return 0;
        }
    }

    /** For {@code info}: where the CPU facts come from, and how byte permutes were judged. */
    public static String cpuFactsDescription() {
        CpuFacts f = CpuInfo.FACTS;
        String s = f.source() == null ? "none reported by " + System.getProperty("os.name") : "from " + f.source();
        if (VectorBridge.vectorCodeUnavailable() == null) {
            try {
                s += "; " + VectorBridge.bytePermuteSource();
            } catch (ReflectiveOperationException | LinkageError e) {
                // vector code not loadable: vectorModuleStatus says why
            }
        }
        return s;
    }

    /** For {@code info}. */
    public static String vectorWidthDescription() {
        int bits = preferredVectorBits();
        return bits == 0 ? "n/a (no Vector API code on this JVM)" : bits + "-bit preferred species";
    }
}
