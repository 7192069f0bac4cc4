package org.vectorjce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider brought in by {@code java.security} alone, as the README tells users to: child JVMs
 * (this JVM's JDK: the suite runs on JDK 25 and again on JDK 17) with
 * {@code -Djava.security.properties=} holding the README's line, exactly as printed, and the jar on
 * the class path or the module path; no code registers the provider.
 */
class JavaSecurityIT {
    private static final String TWOFISH_XTS = "Twofish/XTS/NoPadding";
    private static final String AES_CBC = "AES/CBC/PKCS5Padding";

    /** The {@code security.provider.N=VectorJCE} line of the README (exactly one). */
    static String readmeLine() throws Exception {
        Path readme = Path.of(System.getProperty("vectorjce.readme", "README.md"));
        Matcher m = Pattern.compile("(?m)^security\\.provider\\.\\d+=VectorJCE$").matcher(Files.readString(readme));
        assertTrue(m.find(), "README.md has no security.provider.N=VectorJCE line");
        String line = m.group();
        assertTrue(!m.find(), "README.md has more than one security.provider.N=VectorJCE line");
        return line;
    }

    private static List<String> probe(Path props, boolean modulePath) {
        List<String> a = new ArrayList<>();
        a.add("-Djava.security.properties=" + props);
        if (modulePath) {
            a.addAll(List.of("-p", Jvms.jar().toString(), "--add-modules", "org.vectorjce",
                    "-cp", Jvms.testClasses().toString()));
        } else {
            a.addAll(List.of("-cp", Jvms.jar() + java.io.File.pathSeparator + Jvms.testClasses()));
        }
        a.add(ProviderProbe.class.getName());
        a.add(TWOFISH_XTS);
        a.add(AES_CBC);
        return a;
    }

    /** The README's number is the next free one on this JDK: the JDK stops at the first gap. */
    @Test
    void readmeNumberIsTheNextFreeOne() throws Exception {
        int n = Integer.parseInt(readmeLine().replaceAll("security\\.provider\\.(\\d+)=.*", "$1"));
        int last = 0;
        while (Security.getProperty("security.provider." + (last + 1)) != null) {
            last++;
        }
        assertEquals(last + 1, n, "this JDK (" + Jvms.thisFeature() + ") lists " + last
                + " providers; the README's line must use the next number, " + (last + 1));
    }

    @Test
    void readmeLineWorksFromTheClassPath(@TempDir Path dir) throws Exception {
        assertLast(dir, false);
    }

    @Test
    void readmeLineWorksFromTheModulePath(@TempDir Path dir) throws Exception {
        assertLast(dir, true);
    }

    private static void assertLast(Path dir, boolean modulePath) throws Exception {
        Path props = dir.resolve("vectorjce.security");
        Files.writeString(props, readmeLine() + "\n");
        Jvms.Result r = Jvms.run(Jvms.thisJava(), probe(props, modulePath));
        String where = (modulePath ? "module path" : "class path") + ", Java " + Jvms.thisFeature() + ":\n" + r.out();
        assertEquals(0, r.exit(), where);
        // VectorJCE last: it serves what only it has, and SunJCE keeps what both have.
        assertTrue(r.out().contains(TWOFISH_XTS + " -> VectorJCE"), where);
        assertTrue(r.out().contains(AES_CBC + " -> SunJCE"), where);
    }

    /** Listed first (every JDK provider renumbered after it), VectorJCE serves AES/CBC too. */
    @Test
    void listedFirstItServesAesToo(@TempDir Path dir) throws Exception {
        StringBuilder b = new StringBuilder("security.provider.1=VectorJCE\n");
        for (int i = 1; Security.getProperty("security.provider." + i) != null; i++) {
            b.append("security.provider.").append(i + 1).append('=')
                    .append(Security.getProperty("security.provider." + i)).append('\n');
        }
        Path props = dir.resolve("first.security");
        Files.writeString(props, b.toString());
        for (boolean modulePath : new boolean[] {false, true}) {
            Jvms.Result r = Jvms.run(Jvms.thisJava(), probe(props, modulePath));
            String where = (modulePath ? "module path" : "class path") + ", Java " + Jvms.thisFeature() + ":\n" + r.out();
            assertEquals(0, r.exit(), where);
            assertTrue(r.out().contains(TWOFISH_XTS + " -> VectorJCE"), where);
            assertTrue(r.out().contains(AES_CBC + " -> VectorJCE"), where);
        }
    }

    /**
     * {@code security.provider.13=VectorJCE constantTime=true}: the JDK calls
     * {@code Provider.configure}; on JDK 17 (no constant-time Twofish kernel) Twofish key set-up
     * fails with a clear InvalidKeyException, on JDK 25 with the vector module and VBMI it runs.
     */
    @Test
    void constantTimeArgumentConfiguresTheProvider(@TempDir Path dir) throws Exception {
        Path props = dir.resolve("ct.security");
        Files.writeString(props, readmeLine() + " constantTime=true\n");
        List<String> args = new ArrayList<>(List.of("--add-modules", "jdk.incubator.vector"));
        args.addAll(probe(props, false));
        Jvms.Result r = Jvms.run(Jvms.thisJava(), args);
        String where = "Java " + Jvms.thisFeature() + ":\n" + r.out();
        assertEquals(0, r.exit(), where);
        assertTrue(r.out().contains(TWOFISH_XTS + " -> VectorJCE"), where);
        // The child runs this JDK on this CPU, with the vector module: it qualifies exactly when
        // this JVM (failsafe adds the module too) has a constant-time Twofish kernel.
        boolean expectOk = Jvms.thisFeature() >= 25
                && !org.vectorjce.VectorJce.constantTimeKernels("Twofish").isEmpty();
        assertTrue(r.out().contains(expectOk ? "twofish init -> ok"
                : "twofish init -> InvalidKeyException: No constant-time Twofish kernel"), where);
    }
}
