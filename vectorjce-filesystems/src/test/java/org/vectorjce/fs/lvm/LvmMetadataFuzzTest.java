package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vectorjce.device.Device;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.Partition;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the LVM metadata text parser and the LV mapping with Jazzer: every
 * input must end in a list of LVs whose readable ones read, or an {@link IOException} — never
 * another exception, a hang or a huge allocation.
 *
 * <p>The input is a metadata text. The harness puts it into the metadata area of lvm's own PV
 * ({@link PvImage}: an 8 MiB PV of VG {@code vgf}) with the checksums lvm would write, the even-length
 * inputs at the template's text offset and the odd-length ones 700 bytes before the area's end so
 * that they wrap past it; then lists the LVs ({@link Lvm#read}, {@link Lvm#withLogicalVolumes}),
 * opens each readable one and reads 64 KiB at its start, middle and end and across its first segment
 * boundaries.
 *
 * <p>In {@code mvn test} this replays the seeds in
 * {@code src/test/resources/org/vectorjce/fs/lvm/LvmMetadataFuzzTestInputs/metadata/}: the
 * template's own committed text ({@code ondisk}), {@code vgcfgbackup -f}'s text of the same VG
 * ({@code vgcfgbackup}), and the former with a 2-stripe LV added ({@code striped-edit}). A session,
 * from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=LvmMetadataFuzzTest
 * </pre>
 */
class LvmMetadataFuzzTest {
    private static final PvImage PV = PvImage.template();
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

    /** The seeds are texts the parser takes whole: the VG's LVs, the striped one readable. */
    @Test
    void theSeedsList() throws Exception {
        for (String seed : new String[] {"ondisk", "vgcfgbackup", "striped-edit"}) {
            byte[] text;
            try (var in = LvmMetadataFuzzTest.class.getResourceAsStream("LvmMetadataFuzzTestInputs/metadata/" + seed)) {
                text = in.readAllBytes();
            }
            for (int at : new int[] {PvImage.TEXT_OFFSET, PvImage.MDA_SIZE - 700}) {
                Device pv = PV.withText(text, at);
                List<String> names = Lvm.read(List.of(pv)).stream().map(l -> l.name() + " " + l.segmentTypes() + " "
                        + l.readable()).toList();
                assertEquals(seed.equals("striped-edit")
                        ? List.of("lin linear true", "second linear true", "st striped true", "z zero false")
                        : List.of("lin linear true", "second linear true", "z zero false"), names, seed);
            }
        }
    }

    @FuzzTest(maxDuration = "30s")
    void metadata(byte[] data) {
        if (data.length > 40_000) {
            return;
        }
        Device pv = PV.withText(data, data.length % 2 == 0 ? PvImage.TEXT_OFFSET : PvImage.MDA_SIZE - 700);
        try {
            for (LogicalVolume lv : Lvm.read(List.of(pv))) {
                if (lv.readable()) {
                    read(Lvm.open(List.of(pv), lv));
                }
            }
            for (Partition p : Lvm.withLogicalVolumes(pv)) {
                if (p.scheme().equals(Lvm.SCHEME)) {
                    try {
                        read(Lvm.open(pv, p));
                    } catch (org.vectorjce.fs.UnknownFileSystemException refused) {
                        // a type not read, or a PV not given: a refusal by name
                    }
                }
            }
        } catch (IOException expected) {
            // damage named: fine
        }
    }

    private static void read(Device lv) throws IOException {
        long size = lv.size();
        ByteBuffer b = ByteBuffer.allocate(64 << 10);
        long[] at = {0, size / 2, size - 100, (64 << 10) - 100, (1 << 20) - 100, 12L * (64 << 10) - 50};
        for (long o : at) {
            if (o >= 0 && o < size) {
                b.clear();
                lv.read(b, o);
            }
        }
    }
}
