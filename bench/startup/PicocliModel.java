import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.vectorjce.tool.volume.VolumeMain;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * What picocli's model of {@code volume test} costs in a fresh JVM, and what a model built without
 * annotations would (bench/startup.sh's question: how much of test --type bitlk is picocli's).
 *
 *   annotated     VolumeMain.run("test", "--type", "bitlk", MISSING_IMAGE): the command's own
 *                 model (annotations read by reflection, the JDK making a proxy class per
 *                 annotation type), the parse and the verb up to its check that the image exists
 *   programmatic  a model of about the same size (a verb with 17 options and a positional, under
 *                 a top-level command) built with picocli's programmatic API, no annotation
 *                 read, and the same parse
 *
 * Milliseconds from main's start. Run on the volume jar's base AOT cache, as bin/volume runs test
 * --type bitlk (a cache allows a class path that extends the one it was made with):
 *
 *   javac -d CLASSES -cp VOLUME_JAR bench/startup/PicocliModel.java
 *   java -XX:+UseSerialGC -XX:AOTCache=VOLUME_BASE_AOT -cp VOLUME_JAR:CLASSES PicocliModel annotated|programmatic
 */
public class PicocliModel {
    static final class Target {
        String type;
        Path image;
    }

    public static void main(String[] a) {
        long t0 = System.nanoTime();
        String what;
        if (a[0].equals("annotated")) {
            PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
            int rc = VolumeMain.run(new ByteArrayInputStream(new byte[0]), discard, discard, null,
                    "test", "--type", "bitlk", "/nonexistent/volume.img");
            what = "annotated (exit " + rc + ")";
        } else {
            Target t = new Target();
            CommandSpec root = CommandSpec.wrapWithoutInspection(new Object()).name("volume");
            CommandSpec test = CommandSpec.wrapWithoutInspection(t).name("test");
            test.addOption(OptionSpec.builder("--type", "-M").paramLabel("TYPE").type(String.class)
                    .description("The type.").setter(setter(v -> t.type = (String) v)).build());
            test.addOption(OptionSpec.builder("--key-file", "-d").paramLabel("FILE").type(List.class)
                    .auxiliaryTypes(Path.class).description("Key files.").build());
            test.addOption(OptionSpec.builder("-v", "--verbose").type(boolean.class).description("Verbose.").build());
            for (String n : new String[] {"--header", "--key-slot", "--threads", "--hash", "--cipher", "--veracrypt-pim",
                    "--tcrypt-hidden", "--tcrypt-system", "--volume-key-file", "--key-size", "--offset", "--skip",
                    "--veracrypt", "--tcrypt-backup"}) {
                test.addOption(OptionSpec.builder(n).paramLabel("V").type(String.class).description(n).build());
            }
            test.addPositional(PositionalParamSpec.builder().index("0").paramLabel("IMAGE").type(Path.class)
                    .description("The volume.").setter(setter(v -> t.image = (Path) v)).build());
            CommandLine cl = new CommandLine(root);
            cl.addSubcommand("test", new CommandLine(test));
            cl.parseArgs("test", "--type", "bitlk", "/nonexistent/volume.img");
            what = "programmatic (image " + t.image + ", type " + t.type + ")";
        }
        System.out.printf("%s: %.1f ms%n", what, (System.nanoTime() - t0) / 1e6);
    }

    /** A binding that hands each parsed value to {@code to} (picocli's setter is a generic method: no lambda). */
    private static ISetter setter(Consumer<Object> to) {
        return new ISetter() {
            @Override
            public <T> T set(T value) {
                to.accept(value);
                return null;
            }
        };
    }
}
