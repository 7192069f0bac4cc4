package org.vectorjce.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code aes-jdk} declines cleanly when the JVM's AES intrinsics are off: a child JVM with
 * {@code -XX:-UseAES} reports the decline and its reason in {@code info}, picks another AES kernel,
 * refuses to force {@code aes-jdk}, and still passes every known answer of {@code selftest}.
 */
class JdkKernelDeclineTest {

    private static String run(String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:-UseAES", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
        assertEquals(0, p.exitValue(), "child JVM failed:\n" + out);
        return out;
    }

    @Test
    void declinesWithTheReasonAndTheProviderStillWorks() throws Exception {
        String info = run("org.vectorjce.tool.Main", "info");
        assertTrue(info.lines().anyMatch(l -> l.trim().startsWith("aes-jdk ")
                && l.contains("declined: the JVM's AES intrinsics are off")), info);
        assertTrue(info.lines().anyMatch(l -> l.startsWith("AES kernel:") && !l.contains("aes-jdk")), info);
        String selftest = run("org.vectorjce.tool.Main", "selftest");
        assertTrue(selftest.contains(" 0 failed"), selftest);
        assertTrue(!selftest.contains("aes-jdk"), "selftest ran aes-jdk although it declined:\n" + selftest);
    }

    @Test
    void forcingItFailsKeySetUpWithTheAvailableNames() throws Exception {
        String out = run("-Dvectorjce.kernel.aes=aes-jdk", "org.vectorjce.tool.JdkKernelDeclineTest$ForceMain");
        assertTrue(out.contains("InvalidKeyException") && out.contains("aes-jdk") && out.contains("aes-table"), out);
    }

    /** Child-JVM entry: init AES with aes-jdk forced and print what happens. */
    public static final class ForceMain {
        public static void main(String[] args) throws Exception {
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/ECB/NoPadding", new org.vectorjce.VectorJceProvider());
            try {
                c.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(new byte[16], "AES"));
                System.out.println("init succeeded");
            } catch (java.security.InvalidKeyException e) {
                System.out.println("InvalidKeyException: " + e.getMessage());
            }
        }
    }
}
