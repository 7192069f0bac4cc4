package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tukaani.xz.XZInputStream;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * cryptsetup's LUKS2 header validation suite ({@code tests/luks2-validation-test}): the headers its
 * generators make from {@code luks2_valid_hdr.img}, each with the verdict the suite expects of
 * {@code cryptsetup luksDump}: R (read, possibly after recovering from the other copy) or F
 * (refused). Ours must agree: {@code info()} succeeds, or ends in a {@link CorruptHeaderException}.
 */
class Luks2ValidationSuiteTest {
    @TempDir
    Path dir;

    record Case(String name, String verdict, long size) {
        @Override
        public String toString() {
            return name + " " + verdict;
        }
    }

    static Path folder() {
        return TestImages.folder().resolveSibling("cryptsetup-luks2-validation");
    }

    static Stream<Case> cases() throws IOException {
        List<String> lines = Files.readAllLines(folder().resolve("expected.txt"));
        return lines.stream().filter(l -> !l.isBlank()).map(l -> l.split(" "))
                .map(p -> new Case(p[0], p[1], Long.parseLong(p[2])));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void asCryptsetupValidates(Case c) throws Exception {
        Path img = dir.resolve(c.name());
        try (InputStream in = new XZInputStream(Files.newInputStream(folder().resolve(c.name() + ".xz")))) {
            Files.copy(in, img);
        }
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.setLength(c.size()); // stored without its trailing zeros
        }
        if (c.verdict().equals("F")) {
            assertThrows(CorruptHeaderException.class, () -> LuksVolume.at(img).info(), c.name());
        } else {
            try {
                LuksVolume.at(img).info();
            } catch (VolumeException e) {
                fail(c.name() + " must be read: " + e.getMessage());
            }
        }
    }
}
