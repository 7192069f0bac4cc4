package org.vectorjce.fs.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.fs.spi.Kind;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the java.nio.file layer against what a driver reads from a hostile
 * disk: names and link targets are attacker data (a name with '/', NUL, "..", ""; a target that
 * loops, climbs past the root, names a drive, is empty or holds NUL). The input builds a tree of
 * folders, files and links; the harness then walks it following links (depth 8), reads every
 * file, takes every real path and link target, and resolves paths made of the input's bytes. Only
 * {@link IOException} is allowed (Files.walk's {@link UncheckedIOException} wrapping one), never
 * another exception or a hang.
 *
 * <p>In {@code mvn test} this replays the seeds in
 * {@code src/test/resources/org/vectorjce/fs/nio/ResolverFuzzTestInputs/tree/}. A session:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=ResolverFuzzTest
 * </pre>
 */
class ResolverFuzzTest {
    private static final String[] PIECES = {"a", "B", "b", "/", ".", "..", "\0", ":", "C:", "\\", "", "x:s", "//"};
    private static boolean hooksTurnedOff;

    @BeforeAll
    static void noHooksInRegressionMode() {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    /** Reads the input as a few small numbers and strings of {@link #PIECES}. */
    private static final class Input {
        private final byte[] data;
        private int at;

        Input(byte[] data) {
            this.data = data;
        }

        boolean more() {
            return at < data.length;
        }

        int next(int bound) {
            return more() ? (data[at++] & 0xff) % bound : 0;
        }

        String string() {
            int n = next(6);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append(PIECES[next(PIECES.length)]);
            }
            return sb.toString();
        }
    }

    @FuzzTest(maxDuration = "30s")
    void tree(byte[] data) throws Exception {
        if (data.length > 4096) {
            return;
        }
        Input in = new Input(data);
        FakeDiskFs disk = new FakeDiskFs(in.next(2) == 0, false);
        List<FakeDiskFs.FakeNode> dirs = new ArrayList<>(List.of(disk.rootNode()));
        List<String> paths = new ArrayList<>();
        for (int ops = 0; in.more() && ops < 200; ops++) {
            FakeDiskFs.FakeNode parent = dirs.get(in.next(dirs.size()));
            switch (in.next(4)) {
                case 0:
                    dirs.add(disk.child(parent, in.string(), Kind.DIRECTORY, null, null));
                    break;
                case 1:
                    disk.child(parent, in.string(), Kind.FILE, new byte[in.next(256) * 37], null);
                    break;
                case 2:
                    disk.child(parent, in.string(), Kind.SYMLINK, null, in.string());
                    break;
                default:
                    paths.add(in.string());
            }
        }
        try (DiskFileSystem fs = Fixture.open(disk)) {
            try (Stream<Path> walk = Files.walk(fs.getPath("/"), 8, FileVisitOption.FOLLOW_LINKS)) {
                Iterator<Path> it = walk.iterator();
                for (int n = 0; n < 5000 && it.hasNext(); n++) {
                    visit(it.next());
                }
            } catch (UncheckedIOException e) {
                // a link loop the walker saw, or an entry it could not read: an IOException
            }
            for (String s : paths) {
                Path p;
                try {
                    p = fs.getPath(s);
                } catch (java.nio.file.InvalidPathException e) {
                    continue; // the user's string, not the disk's
                }
                visit(p);
            }
        }
    }

    private static void visit(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                Files.readSymbolicLink(p);
            }
            p.toRealPath();
            if (Files.isRegularFile(p)) {
                Files.readAllBytes(p);
            }
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.limit(1000).forEach(q -> q.getFileName());
                }
            }
        } catch (IOException e) {
            // allowed: what a hostile tree may give
        }
    }
}
