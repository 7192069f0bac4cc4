package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * {@code volume --help}'s text as picocli renders it, made at build time, so that printing it
 * needs no picocli model. Building that model reflects over the verbs' annotations, which in a
 * fresh JVM spins an annotation proxy class per annotation type and the method handles behind
 * them: about 0.1 s, a third of the command's start-up, for a text that changes only with the
 * code.
 *
 * <p>The build's {@code process-classes} phase runs {@link #main} (execution {@code usage-text}
 * in {@code vectorjce-tool/pom.xml}), which writes the text picocli renders for
 * {@code volume --help}, with ANSI styles and without, as resources beside this class; they are
 * in the jar, and never in the sources, so they cannot fall behind the code.
 * {@link VolumeMain} prints one for exactly the command lines whose output is that text and
 * nothing else ({@link #print}): {@code --help}, {@code -h} or {@code help} alone, no
 * {@code picocli.*} system property (those change the width, the colours or the parsing), and the
 * styled text where picocli's {@link Ansi#AUTO} would style it (a terminal, {@code NO_COLOR},
 * {@code CLICOLOR}...). Where the resources are missing picocli renders the text itself.
 * {@code VolumeHelpTest} compares both texts with what picocli prints.
 */
final class UsageText {
    /** The text without ANSI styles (the usual case: standard output is no terminal). */
    static final String PLAIN = "usage.txt";
    /** The text with picocli's default ANSI styles. */
    static final String STYLED = "usage-ansi.txt";

    private UsageText() {
    }

    /**
     * Prints {@code volume --help}'s text to {@code out} and returns true when {@code argv} asks
     * for it alone and picocli would print exactly that text; otherwise prints nothing and
     * returns false.
     */
    static boolean print(String[] argv, PrintWriter out) {
        if (argv.length != 1 || !(argv[0].equals("--help") || argv[0].equals("-h") || argv[0].equals("help"))) {
            return false;
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("picocli.")) {
                return false;
            }
        }
        byte[] text;
        try (InputStream in = UsageText.class.getResourceAsStream(Ansi.AUTO.enabled() ? STYLED : PLAIN)) {
            if (in == null) {
                return false;
            }
            text = in.readAllBytes();
        } catch (IOException e) {
            return false;
        }
        String s = new String(text, StandardCharsets.UTF_8);
        out.print(System.lineSeparator().equals("\n") ? s : s.replace("\n", System.lineSeparator()));
        out.flush();
        return true;
    }

    /** Writes both texts into the folder of this class's package under {@code args[0]} (the build's classes). */
    public static void main(String[] args) throws IOException {
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        PrintWriter discard = new PrintWriter(none);
        CommandLine cl = new VolumeMain(InputStream.nullInputStream(), none, none, null)
                .commandLine(new String[] {"--help"}, discard, discard);
        Path dir = Path.of(args[0], UsageText.class.getPackageName().replace('.', '/'));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(PLAIN), lines(cl.getUsageMessage(Ansi.OFF)), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(STYLED), lines(cl.getUsageMessage(Ansi.ON)), StandardCharsets.UTF_8);
    }

    private static String lines(String text) {
        return text.replace(System.lineSeparator(), "\n");
    }
}
