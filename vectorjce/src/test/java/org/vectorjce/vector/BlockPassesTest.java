package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.vectorjce.internal.mode.BlockPasses;
import org.vectorjce.internal.registry.Settings;

/**
 * The vector mode arithmetic ({@code arithmetic=vector}: the Vector API one at the width this JVM
 * runs, where the module is present) against the scalar one, at every count around its step
 * widths, at odd offsets; and which one {@code arithmetic=auto} selects here.
 */
class BlockPassesTest {
    private static final BlockPasses SCALAR = BlockPasses.SCALAR;

    private static BlockPasses vector() {
        BlockPasses m = BlockPasses.forSetting(Settings.Arithmetic.VECTOR);
        Assumptions.assumeTrue(m != SCALAR, "vector arithmetic not selected on this JVM");
        return m;
    }

    @Test
    void selectionMatchesTheJvm() {
        // Expectation set per surefire execution (see pom.xml); absent when run by hand.
        String expected = org.vectorjce.TestMachine.expect("arithmetic");
        Assumptions.assumeTrue(expected != null, "no expectation given");
        assertEquals(expected, BlockPasses.forSetting(Settings.Arithmetic.AUTO).name());
    }

    @Test
    void xtsXorEqualsScalar() {
        BlockPasses v = vector();
        Random r = new Random(7);
        for (int blocks = 0; blocks <= 140; blocks++) {
            check(v, r, blocks);
        }
        for (int blocks : new int[] {255, 256, 257, 1000, 1024}) {
            check(v, r, blocks);
        }
    }

    private static void check(BlockPasses v, Random r, int blocks) {
        long[] t1 = {r.nextLong(), r.nextLong()};
        if (blocks % 3 == 0) {
            t1[1] |= Long.MIN_VALUE; // force the carry on the first step
        }
        long[] t2 = t1.clone();
        int off = r.nextInt(17);
        byte[] d1 = new byte[off + blocks * 16 + 3];
        r.nextBytes(d1);
        byte[] d2 = d1.clone();
        byte[] o1 = new byte[d1.length], o2 = new byte[d1.length];
        int outOff = r.nextInt(3);
        int twOff = r.nextInt(5);
        byte[] tw1 = new byte[twOff + blocks * 16], tw2 = new byte[tw1.length];
        SCALAR.xtsXorSave(t1, d1, off, o1, outOff, blocks, tw1, twOff);
        v.xtsXorSave(t2, d2, off, o2, outOff, blocks, tw2, twOff);
        assertArrayEquals(o1, o2, "tweak xor, blocks=" + blocks);
        assertArrayEquals(t1, t2, "next tweak, blocks=" + blocks);
        assertArrayEquals(tw1, tw2, "saved tweaks, blocks=" + blocks);
        // in place, and against the tweak sequence itself (xor with zeros = the tweaks)
        long[] t3 = t1.clone();
        byte[] zeros = new byte[blocks * 16];
        byte[] seq = new byte[blocks * 16];
        SCALAR.xtsTweaks(t3, seq, 0, blocks);
        long[] t4 = t1.clone();
        byte[] saved = new byte[blocks * 16];
        v.xtsXorSave(t4, zeros, 0, zeros, 0, blocks, saved, 0);
        assertArrayEquals(seq, zeros, "in place, blocks=" + blocks);
        assertArrayEquals(seq, saved, "the saved tweaks are the tweak sequence, blocks=" + blocks);
    }

    @Test
    void lrwXorEqualsScalar() {
        BlockPasses v = vector();
        Random r = new Random(9);
        long[] mulinc = BlockPasses.lrwTable(r.nextLong(), r.nextLong());
        // Starts at every offset into a 4-vector group, and where the index carries into its high
        // half or wraps past 2^128.
        long[][] starts = {{0, 0}, {0, 1}, {0, 3}, {0, 4}, {0, 5}, {0, 8}, {0, 12}, {0, 15}, {0, 16}, {0, 30},
            {0, -9}, {0, -1}, {0, -16}, {0, -12}, {0, -64}, {-1, -5}, {-1, -1}, {-1, -16}, {-1, -36},
            {r.nextLong(), r.nextLong()}};
        for (long[] st : starts) {
            for (int blocks : new int[] {0, 1, 2, 3, 4, 5, 8, 9, 13, 16, 17, 31, 33, 64, 100, 257, 1024}) {
                long[] s1 = {r.nextLong(), r.nextLong(), st[0], st[1]};
                long[] s2 = s1.clone();
                byte[] in = new byte[blocks * 16 + 7];
                r.nextBytes(in);
                byte[] o1 = new byte[blocks * 16 + 2], o2 = new byte[blocks * 16 + 2];
                SCALAR.lrwXor(s1, mulinc, in, 7, o1, 2, blocks);
                v.lrwXor(s2, mulinc, in, 7, o2, 2, blocks);
                String what = "I=" + Long.toHexString(st[0]) + ":" + Long.toHexString(st[1]) + " blocks=" + blocks;
                assertArrayEquals(o1, o2, what);
                assertArrayEquals(s1, s2, "state after, " + what);
            }
        }
    }

    @Test
    void constantTimeEqualFindsEveryDifference() {
        Random r = new Random(11);
        for (int len = 0; len <= 70; len++) {
            byte[] a = new byte[len + 3];
            r.nextBytes(a);
            byte[] b = new byte[len + 5];
            System.arraycopy(a, 3, b, 5, len);
            assertEquals(true, BlockPasses.constantTimeEqual(a, 3, b, 5, len), "equal, len=" + len);
            for (int i = 0; i < len; i++) {
                b[5 + i] ^= (byte) (1 << r.nextInt(8));
                assertEquals(false, BlockPasses.constantTimeEqual(a, 3, b, 5, len), "byte " + i + " of " + len);
                b[5 + i] = a[3 + i];
            }
        }
    }

    @Test
    void xorEqualsScalar() {
        BlockPasses v = vector();
        Random r = new Random(8);
        for (int len = 0; len <= 4096; len += len < 256 ? 16 : 272) {
            byte[] a = new byte[len + 5], b = new byte[len + 9];
            r.nextBytes(a);
            r.nextBytes(b);
            byte[] o1 = new byte[len + 3], o2 = new byte[len + 3];
            SCALAR.xor(a, 5, b, 9, o1, 3, len);
            v.xor(a, 5, b, 9, o2, 3, len);
            assertArrayEquals(o1, o2, "len=" + len);
            // in place
            byte[] a2 = a.clone();
            v.xor(a2, 5, b, 9, a2, 5, len);
            assertArrayEquals(java.util.Arrays.copyOfRange(o1, 3, 3 + len), java.util.Arrays.copyOfRange(a2, 5, 5 + len));
        }
    }
}
