package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.vectorjce.volumes.VolumeException;

/**
 * How the {@code volume} commands read a passphrase when no key file gives it, as cryptsetup
 * does: a prompt without echo on a terminal, else the first line of standard input. Every buffer
 * that held it is wiped before it is dropped; the caller wipes the result.
 */
public final class Passphrase {
    private Passphrase() {
    }

    /**
     * The passphrase as bytes (UTF-8 for a prompt): from {@code console} when it is this JVM's
     * console on a terminal, else the first line of {@code stdin} without its newline, at most
     * {@code max} bytes.
     */
    public static byte[] read(InputStream stdin, Console console, int max) throws IOException, VolumeException {
        return read(stdin, console, max, "Enter passphrase: ");
    }

    /** {@link #read(InputStream, Console, int)} with the prompt {@code prompt} on a terminal. */
    static byte[] read(InputStream stdin, Console console, int max, String prompt) throws IOException,
            VolumeException {
        if (console != null && System.console() == console && isTerminal()) {
            char[] c = console.readPassword("%s", prompt);
            if (c == null) {
                throw new VolumeException("No passphrase read");
            }
            ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(c));
            try {
                byte[] p = new byte[b.remaining()];
                b.get(p);
                return p;
            } finally {
                Arrays.fill(c, '\0');
                if (b.hasArray()) {
                    Arrays.fill(b.array(), (byte) 0);
                }
            }
        }
        byte[] buf = new byte[64];
        int n = 0;
        int ch;
        while ((ch = stdin.read()) >= 0 && ch != '\n') {
            if (n == max) {
                Arrays.fill(buf, (byte) 0);
                throw new VolumeException("The passphrase on standard input is longer than " + max + " bytes");
            }
            if (n == buf.length) {
                byte[] bigger = Arrays.copyOf(buf, Math.min(max, 2 * buf.length));
                Arrays.fill(buf, (byte) 0);
                buf = bigger;
            }
            buf[n++] = (byte) ch;
        }
        byte[] p = Arrays.copyOf(buf, n);
        Arrays.fill(buf, (byte) 0);
        return p;
    }

    /** Whether this JVM has a console on a terminal (for prompts and the progress bar). */
    static boolean isTerminal() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            // Java 22+: Console.isTerminal(); on 17-21 a non-null console means a terminal
            return (boolean) Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
