package org.vectorjce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The same jar gives byte-identical output on JDK 17 and JDK 25 for every transformation: the
 * digests of {@link OutputDigest} from a JDK 17 child (base kernels) and from this JVM's JDK with
 * the vector module (every vector kernel too) must all agree, transformation by transformation.
 */
class SameOutputIT {
    @Test
    void jdk17AndThisJdkGiveTheSameBytes() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Jvms.thisFeature() >= 25,
                "runs in the JDK 25 execution: it compares a JDK 17 child with this JVM");
        Path java17 = Jvms.java17();
        String cp = Jvms.jar() + java.io.File.pathSeparator + Jvms.testClasses();
        Jvms.Result old = Jvms.run(java17, List.of("-cp", cp, OutputDigest.class.getName()));
        Jvms.Result now = Jvms.run(Jvms.thisJava(), List.of("--add-modules", "jdk.incubator.vector", "-cp", cp,
                OutputDigest.class.getName()));
        assertEquals(0, old.exit(), old.out());
        assertEquals(0, now.exit(), now.out());
        Map<String, String> reference = new LinkedHashMap<>();
        int lines = 0;
        for (Jvms.Result r : List.of(old, now)) {
            for (String line : r.out().split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length != 3 || !f[0].contains("/")) {
                    continue; // JVM warnings
                }
                lines++;
                String first = reference.putIfAbsent(f[0], f[2]);
                assertTrue(first == null || first.equals(f[2]),
                        f[0] + " on kernel " + f[1] + " (" + (r == old ? "JDK 17" : "JDK " + Jvms.thisFeature())
                                + ") differs from the JDK 17 output");
            }
        }
        assertEquals(14, reference.size(), "transformations compared");
        assertTrue(lines >= 2 * 14, "kernels × transformations printed: " + lines);
        System.out.println("[same-output] " + reference.size() + " transformations, " + lines
                + " kernel × transformation digests agree between JDK 17 and JDK " + Jvms.thisFeature());
    }
}
