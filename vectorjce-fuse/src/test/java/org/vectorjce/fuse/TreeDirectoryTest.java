package org.vectorjce.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder's listing through {@link TreeDirectory} in steps of every size, as libfuse asks for it
 * (each step from the offset the last entry came with), after seeks back and forward, and past
 * the end, equals the JDK's own listing of the folder with {@code "."} and {@code ".."} first.
 */
class TreeDirectoryTest {
    @TempDir
    Path dir;

    /** A sink that takes at most {@code room} entries, recording each with its next offset. */
    static final class Steps implements TreeDirectory.Sink {
        final List<String> names = new ArrayList<>();
        final List<Long> offsets = new ArrayList<>();
        int room;

        Steps(int room) {
            this.room = room;
        }

        @Override
        public boolean dot(String name, long next) {
            return take(name, next);
        }

        @Override
        public boolean entry(Path entry, long next) {
            return take(entry.getFileName().toString(), next);
        }

        private boolean take(String name, long next) {
            if (room == 0) {
                return false;
            }
            room--;
            names.add(name);
            offsets.add(next);
            return true;
        }
    }

    private List<String> expected() throws IOException {
        List<String> all = new ArrayList<>(List.of(".", ".."));
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).forEach(all::add);
        }
        return all;
    }

    @Test
    void stepsOfEverySizeListTheFolderOnce() throws IOException {
        for (int i = 0; i < 37; i++) {
            Files.createFile(dir.resolve("f" + i));
        }
        List<String> all = expected();
        for (int step : new int[] {1, 2, 3, 5, 36, 39, 100}) {
            TreeDirectory d = new TreeDirectory(dir);
            List<String> got = new ArrayList<>();
            long offset = 0;
            while (true) {
                Steps s = new Steps(step);
                d.list(offset, s);
                if (s.names.isEmpty()) {
                    break;
                }
                got.addAll(s.names);
                offset = s.offsets.get(s.offsets.size() - 1);
            }
            d.close();
            assertEquals(all, got, "steps of " + step);
        }
    }

    @Test
    void seeksBackAndForward() throws IOException {
        for (int i = 0; i < 10; i++) {
            Files.createFile(dir.resolve("g" + i));
        }
        List<String> all = expected();
        TreeDirectory d = new TreeDirectory(dir);
        Steps s = new Steps(7);
        d.list(0, s);
        assertEquals(all.subList(0, 7), s.names);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), s.offsets);
        for (long at : new long[] {3, 0, 11, 1, 12, 2}) { // rewinddir, seekdir to each offset told
            s = new Steps(100);
            d.list(at, s);
            assertEquals(all.subList((int) at, all.size()), s.names, "from " + at);
        }
        s = new Steps(100);
        d.list(50, s);
        assertEquals(List.of(), s.names, "past the end");
        d.close();
        assertThrows(IOException.class, () -> d.list(0, new Steps(1)));
    }
}
