package org.vectorjce.internal.vector;

import static jdk.incubator.vector.VectorOperators.ROL;
import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;
import static org.vectorjce.internal.vector.TwofishVec512.IN1_HI;
import static org.vectorjce.internal.vector.TwofishVec512.IN1_LO;
import static org.vectorjce.internal.vector.TwofishVec512.IN2_HI;
import static org.vectorjce.internal.vector.TwofishVec512.IN2_LO;
import static org.vectorjce.internal.vector.TwofishVec512.LD1_HI;
import static org.vectorjce.internal.vector.TwofishVec512.LD1_LO;
import static org.vectorjce.internal.vector.TwofishVec512.LD2_HI;
import static org.vectorjce.internal.vector.TwofishVec512.LD2_LO;
import static org.vectorjce.internal.vector.TwofishVec512.OUT1_A;
import static org.vectorjce.internal.vector.TwofishVec512.OUT1_B;
import static org.vectorjce.internal.vector.TwofishVec512.OUT2_HI;
import static org.vectorjce.internal.vector.TwofishVec512.OUT2_LO;
import static org.vectorjce.internal.vector.TwofishVec512.ST1_HI;
import static org.vectorjce.internal.vector.TwofishVec512.ST1_LO;
import static org.vectorjce.internal.vector.TwofishVec512.ST2_HI;
import static org.vectorjce.internal.vector.TwofishVec512.ST2_LO;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The fused batch of {@code twofish-vec512-16way}: the same word-sliced algorithm, index vectors
 * and tables as {@link TwofishVec512} (see there), with the 32 blocks' state in local vectors and
 * four rounds written out per loop iteration, so nothing goes through memory between steps.
 *
 * <p>The shape is chosen for HotSpot's tiers, not for looks. Each method is ~5.8 KB of bytecode,
 * under the 8,000-byte limit for compiling a method at all, and too large for C1 at both tier 2
 * ("out of virtual registers") and tier 3 ("too large"), so it goes interpreter → C2 whichever
 * tier the policy tries first. With two rounds per iteration (3.3 KB) C1 can compile it at tier 2
 * when C2's queue is long, fail at tier 3, and leave the boxed tier-2 code installed for good
 * (a few MB/s, megabytes allocated per call); with one round per iteration tier 2 always takes it.
 * Interpreted it runs at a few MB/s too, so only a provider configured with
 * {@code twofish16.path=fused} ({@link Twofish16Path}) runs it.
 *
 * <p>The tables are a heap copy ({@code tb}, 3 KiB, the layout of {@link TwofishVec512}'s
 * {@code TABLES}): array loads with constant offsets inline to a few C2 nodes each, where the 192
 * segment loads of four rounds would push the method past C2's inlining budget. The four round
 * blocks are the same template with other words and subkeys. Free of secret-indexed memory
 * access: the S-box lookups are register permutes of tables loaded whole from fixed offsets.
 */
final class TwofishVec512Fused {
    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_512;

    private TwofishVec512Fused() {
    }

    /** Encrypts {@code batches} × 32 blocks with subkeys {@code k} and tables {@code tb}. */
    static void encrypt(byte[] tb, int[] k, byte[] in, int inOff, byte[] out, int outOff, int batches) {
        for (; batches > 0; batches--, inOff += 512, outOff += 512) {
            IntVector aX0, aX1, aX2, aX3, bX0, bX1, bX2, bX3;
            IntVector l0, l1, l2, l3, m0, m1, m2, m3, c0, c1, c2, c3, n0, n1, n2, n3;
            IntVector ga0, ga1, gb0, gb1, fa, fb;
            ByteVector ap, aq, bp, bq, u0, u1, v0, v1, i0, i1, i2, i3, z0, z1, z2, z3, y01a, y01b, y23a, y23b;
            ByteVector s0x01, s0x5B, s0xEF, s1x01, s1x5B, s1xEF, s2x01, s2x5B, s2xEF, s3x01, s3x5B, s3xEF;
            VectorMask<Byte> h;
            // Input whitening (§4): (x0, x1, x2, x3) = P ^ K0..K3.
            l0 = ByteVector.fromArray(B, in, inOff).reinterpretAsInts();
            l1 = ByteVector.fromArray(B, in, inOff + 64).reinterpretAsInts();
            l2 = ByteVector.fromArray(B, in, inOff + 128).reinterpretAsInts();
            l3 = ByteVector.fromArray(B, in, inOff + 192).reinterpretAsInts();
            m0 = LD1_LO.selectFrom(l0, l1); m1 = LD1_HI.selectFrom(l0, l1);
            m2 = LD1_LO.selectFrom(l2, l3); m3 = LD1_HI.selectFrom(l2, l3);
            aX0 = LD2_LO.selectFrom(m0, m2).lanewise(XOR, k[0]);
            aX1 = LD2_HI.selectFrom(m0, m2).lanewise(XOR, k[1]);
            aX2 = LD2_LO.selectFrom(m1, m3).lanewise(XOR, k[2]);
            aX3 = LD2_HI.selectFrom(m1, m3).lanewise(XOR, k[3]);
            l0 = ByteVector.fromArray(B, in, inOff + 256).reinterpretAsInts();
            l1 = ByteVector.fromArray(B, in, inOff + 320).reinterpretAsInts();
            l2 = ByteVector.fromArray(B, in, inOff + 384).reinterpretAsInts();
            l3 = ByteVector.fromArray(B, in, inOff + 448).reinterpretAsInts();
            m0 = LD1_LO.selectFrom(l0, l1); m1 = LD1_HI.selectFrom(l0, l1);
            m2 = LD1_LO.selectFrom(l2, l3); m3 = LD1_HI.selectFrom(l2, l3);
            bX0 = LD2_LO.selectFrom(m0, m2).lanewise(XOR, k[0]);
            bX1 = LD2_HI.selectFrom(m0, m2).lanewise(XOR, k[1]);
            bX2 = LD2_LO.selectFrom(m1, m3).lanewise(XOR, k[2]);
            bX3 = LD2_HI.selectFrom(m1, m3).lanewise(XOR, k[3]);
            for (int r = 8; r < 40; r += 8) {
                // Round r/2 - 4 (§4.1): g0(x0), g1(x1) into x2 = ROR(x2 ^ F0, 1), x3 = ROL(x3, 1) ^ F1.
                ap = aX0.reinterpretAsBytes(); aq = aX1.reinterpretAsBytes();
                bp = bX0.reinterpretAsBytes(); bq = bX1.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX2 = aX2.lanewise(XOR, fa.add(k[r])).lanewise(ROR, 1);
                aX3 = aX3.lanewise(ROL, 1).lanewise(XOR, fa.add(ga1).add(k[r + 1]));
                bX2 = bX2.lanewise(XOR, fb.add(k[r])).lanewise(ROR, 1);
                bX3 = bX3.lanewise(ROL, 1).lanewise(XOR, fb.add(gb1).add(k[r + 1]));
                // The next round, halves swapped: g0(x2), g1(x3) into x0, x1.
                ap = aX2.reinterpretAsBytes(); aq = aX3.reinterpretAsBytes();
                bp = bX2.reinterpretAsBytes(); bq = bX3.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX0 = aX0.lanewise(XOR, fa.add(k[r + 2])).lanewise(ROR, 1);
                aX1 = aX1.lanewise(ROL, 1).lanewise(XOR, fa.add(ga1).add(k[r + 3]));
                bX0 = bX0.lanewise(XOR, fb.add(k[r + 2])).lanewise(ROR, 1);
                bX1 = bX1.lanewise(ROL, 1).lanewise(XOR, fb.add(gb1).add(k[r + 3]));
                // The third: as the first with the next subkeys.
                ap = aX0.reinterpretAsBytes(); aq = aX1.reinterpretAsBytes();
                bp = bX0.reinterpretAsBytes(); bq = bX1.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX2 = aX2.lanewise(XOR, fa.add(k[r + 4])).lanewise(ROR, 1);
                aX3 = aX3.lanewise(ROL, 1).lanewise(XOR, fa.add(ga1).add(k[r + 5]));
                bX2 = bX2.lanewise(XOR, fb.add(k[r + 4])).lanewise(ROR, 1);
                bX3 = bX3.lanewise(ROL, 1).lanewise(XOR, fb.add(gb1).add(k[r + 5]));
                // The fourth: as the second with the next subkeys.
                ap = aX2.reinterpretAsBytes(); aq = aX3.reinterpretAsBytes();
                bp = bX2.reinterpretAsBytes(); bq = bX3.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX0 = aX0.lanewise(XOR, fa.add(k[r + 6])).lanewise(ROR, 1);
                aX1 = aX1.lanewise(ROL, 1).lanewise(XOR, fa.add(ga1).add(k[r + 7]));
                bX0 = bX0.lanewise(XOR, fb.add(k[r + 6])).lanewise(ROR, 1);
                bX1 = bX1.lanewise(ROL, 1).lanewise(XOR, fb.add(gb1).add(k[r + 7]));
            }
            // Output whitening undoes the last swap (§4): C = (x2, x3, x0, x1) ^ K4..K7.
            c0 = aX2.lanewise(XOR, k[4]);
            c1 = aX3.lanewise(XOR, k[5]);
            c2 = aX0.lanewise(XOR, k[6]);
            c3 = aX1.lanewise(XOR, k[7]);
            n0 = ST1_LO.selectFrom(c0, c1); n1 = ST1_HI.selectFrom(c0, c1);
            n2 = ST1_LO.selectFrom(c2, c3); n3 = ST1_HI.selectFrom(c2, c3);
            ST2_LO.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff);
            ST2_HI.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 64);
            ST2_LO.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 128);
            ST2_HI.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 192);
            c0 = bX2.lanewise(XOR, k[4]);
            c1 = bX3.lanewise(XOR, k[5]);
            c2 = bX0.lanewise(XOR, k[6]);
            c3 = bX1.lanewise(XOR, k[7]);
            n0 = ST1_LO.selectFrom(c0, c1); n1 = ST1_HI.selectFrom(c0, c1);
            n2 = ST1_LO.selectFrom(c2, c3); n3 = ST1_HI.selectFrom(c2, c3);
            ST2_LO.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 256);
            ST2_HI.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 320);
            ST2_LO.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 384);
            ST2_HI.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 448);
        }
    }

    /** Decrypts {@code batches} × 32 blocks: the rounds of {@link #encrypt} in reverse. */
    static void decrypt(byte[] tb, int[] k, byte[] in, int inOff, byte[] out, int outOff, int batches) {
        for (; batches > 0; batches--, inOff += 512, outOff += 512) {
            IntVector aX0, aX1, aX2, aX3, bX0, bX1, bX2, bX3;
            IntVector l0, l1, l2, l3, m0, m1, m2, m3, c0, c1, c2, c3, n0, n1, n2, n3;
            IntVector ga0, ga1, gb0, gb1, fa, fb;
            ByteVector ap, aq, bp, bq, u0, u1, v0, v1, i0, i1, i2, i3, z0, z1, z2, z3, y01a, y01b, y23a, y23b;
            ByteVector s0x01, s0x5B, s0xEF, s1x01, s1x5B, s1xEF, s2x01, s2x5B, s2xEF, s3x01, s3x5B, s3xEF;
            VectorMask<Byte> h;
            // (x2, x3, x0, x1) = C ^ K4..K7.
            l0 = ByteVector.fromArray(B, in, inOff).reinterpretAsInts();
            l1 = ByteVector.fromArray(B, in, inOff + 64).reinterpretAsInts();
            l2 = ByteVector.fromArray(B, in, inOff + 128).reinterpretAsInts();
            l3 = ByteVector.fromArray(B, in, inOff + 192).reinterpretAsInts();
            m0 = LD1_LO.selectFrom(l0, l1); m1 = LD1_HI.selectFrom(l0, l1);
            m2 = LD1_LO.selectFrom(l2, l3); m3 = LD1_HI.selectFrom(l2, l3);
            aX2 = LD2_LO.selectFrom(m0, m2).lanewise(XOR, k[4]);
            aX3 = LD2_HI.selectFrom(m0, m2).lanewise(XOR, k[5]);
            aX0 = LD2_LO.selectFrom(m1, m3).lanewise(XOR, k[6]);
            aX1 = LD2_HI.selectFrom(m1, m3).lanewise(XOR, k[7]);
            l0 = ByteVector.fromArray(B, in, inOff + 256).reinterpretAsInts();
            l1 = ByteVector.fromArray(B, in, inOff + 320).reinterpretAsInts();
            l2 = ByteVector.fromArray(B, in, inOff + 384).reinterpretAsInts();
            l3 = ByteVector.fromArray(B, in, inOff + 448).reinterpretAsInts();
            m0 = LD1_LO.selectFrom(l0, l1); m1 = LD1_HI.selectFrom(l0, l1);
            m2 = LD1_LO.selectFrom(l2, l3); m3 = LD1_HI.selectFrom(l2, l3);
            bX2 = LD2_LO.selectFrom(m0, m2).lanewise(XOR, k[4]);
            bX3 = LD2_HI.selectFrom(m0, m2).lanewise(XOR, k[5]);
            bX0 = LD2_LO.selectFrom(m1, m3).lanewise(XOR, k[6]);
            bX1 = LD2_HI.selectFrom(m1, m3).lanewise(XOR, k[7]);
            for (int r = 32; r >= 8; r -= 8) {
                // Inverse round (§4.1 backwards): g0(x2), g1(x3) into x1 = ROR(x1 ^ F1, 1), x0 = ROL(x0, 1) ^ F0.
                ap = aX2.reinterpretAsBytes(); aq = aX3.reinterpretAsBytes();
                bp = bX2.reinterpretAsBytes(); bq = bX3.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX1 = aX1.lanewise(XOR, fa.add(ga1).add(k[r + 7])).lanewise(ROR, 1);
                aX0 = aX0.lanewise(ROL, 1).lanewise(XOR, fa.add(k[r + 6]));
                bX1 = bX1.lanewise(XOR, fb.add(gb1).add(k[r + 7])).lanewise(ROR, 1);
                bX0 = bX0.lanewise(ROL, 1).lanewise(XOR, fb.add(k[r + 6]));
                // The round before it: g0(x0), g1(x1) into x3, x2.
                ap = aX0.reinterpretAsBytes(); aq = aX1.reinterpretAsBytes();
                bp = bX0.reinterpretAsBytes(); bq = bX1.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX3 = aX3.lanewise(XOR, fa.add(ga1).add(k[r + 5])).lanewise(ROR, 1);
                aX2 = aX2.lanewise(ROL, 1).lanewise(XOR, fa.add(k[r + 4]));
                bX3 = bX3.lanewise(XOR, fb.add(gb1).add(k[r + 5])).lanewise(ROR, 1);
                bX2 = bX2.lanewise(ROL, 1).lanewise(XOR, fb.add(k[r + 4]));
                // As the first with the earlier subkeys.
                ap = aX2.reinterpretAsBytes(); aq = aX3.reinterpretAsBytes();
                bp = bX2.reinterpretAsBytes(); bq = bX3.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX1 = aX1.lanewise(XOR, fa.add(ga1).add(k[r + 3])).lanewise(ROR, 1);
                aX0 = aX0.lanewise(ROL, 1).lanewise(XOR, fa.add(k[r + 2]));
                bX1 = bX1.lanewise(XOR, fb.add(gb1).add(k[r + 3])).lanewise(ROR, 1);
                bX0 = bX0.lanewise(ROL, 1).lanewise(XOR, fb.add(k[r + 2]));
                // As the second with the earlier subkeys.
                ap = aX0.reinterpretAsBytes(); aq = aX1.reinterpretAsBytes();
                bp = bX0.reinterpretAsBytes(); bq = bX1.reinterpretAsBytes();
                u0 = IN1_LO.selectFrom(ap, aq); u1 = IN1_HI.selectFrom(ap, aq);
                v0 = IN1_LO.selectFrom(bp, bq); v1 = IN1_HI.selectFrom(bp, bq);
                i0 = IN2_LO.selectFrom(u0, v0); i1 = IN2_HI.selectFrom(u0, v0);
                i2 = IN2_LO.selectFrom(u1, v1); i3 = IN2_HI.selectFrom(u1, v1);
                h = i0.lt((byte) 0);
                s0x01 = i0.selectFrom(ByteVector.fromArray(B, tb, 0), ByteVector.fromArray(B, tb, 64))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 128), ByteVector.fromArray(B, tb, 192)), h);
                s0x5B = i0.selectFrom(ByteVector.fromArray(B, tb, 256), ByteVector.fromArray(B, tb, 320))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 384), ByteVector.fromArray(B, tb, 448)), h);
                s0xEF = i0.selectFrom(ByteVector.fromArray(B, tb, 512), ByteVector.fromArray(B, tb, 576))
                        .blend(i0.selectFrom(ByteVector.fromArray(B, tb, 640), ByteVector.fromArray(B, tb, 704)), h);
                h = i1.lt((byte) 0);
                s1x01 = i1.selectFrom(ByteVector.fromArray(B, tb, 768), ByteVector.fromArray(B, tb, 832))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 896), ByteVector.fromArray(B, tb, 960)), h);
                s1x5B = i1.selectFrom(ByteVector.fromArray(B, tb, 1024), ByteVector.fromArray(B, tb, 1088))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1152), ByteVector.fromArray(B, tb, 1216)), h);
                s1xEF = i1.selectFrom(ByteVector.fromArray(B, tb, 1280), ByteVector.fromArray(B, tb, 1344))
                        .blend(i1.selectFrom(ByteVector.fromArray(B, tb, 1408), ByteVector.fromArray(B, tb, 1472)), h);
                h = i2.lt((byte) 0);
                s2x01 = i2.selectFrom(ByteVector.fromArray(B, tb, 1536), ByteVector.fromArray(B, tb, 1600))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1664), ByteVector.fromArray(B, tb, 1728)), h);
                s2x5B = i2.selectFrom(ByteVector.fromArray(B, tb, 1792), ByteVector.fromArray(B, tb, 1856))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 1920), ByteVector.fromArray(B, tb, 1984)), h);
                s2xEF = i2.selectFrom(ByteVector.fromArray(B, tb, 2048), ByteVector.fromArray(B, tb, 2112))
                        .blend(i2.selectFrom(ByteVector.fromArray(B, tb, 2176), ByteVector.fromArray(B, tb, 2240)), h);
                h = i3.lt((byte) 0);
                s3x01 = i3.selectFrom(ByteVector.fromArray(B, tb, 2304), ByteVector.fromArray(B, tb, 2368))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2432), ByteVector.fromArray(B, tb, 2496)), h);
                s3x5B = i3.selectFrom(ByteVector.fromArray(B, tb, 2560), ByteVector.fromArray(B, tb, 2624))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2688), ByteVector.fromArray(B, tb, 2752)), h);
                s3xEF = i3.selectFrom(ByteVector.fromArray(B, tb, 2816), ByteVector.fromArray(B, tb, 2880))
                        .blend(i3.selectFrom(ByteVector.fromArray(B, tb, 2944), ByteVector.fromArray(B, tb, 3008)), h);
                z0 = s0x01.lanewise(XOR, s1xEF).lanewise(XOR, s2x5B).lanewise(XOR, s3x5B);
                z1 = s0x5B.lanewise(XOR, s1xEF).lanewise(XOR, s2xEF).lanewise(XOR, s3x01);
                z2 = s0xEF.lanewise(XOR, s1x5B).lanewise(XOR, s2x01).lanewise(XOR, s3xEF);
                z3 = s0xEF.lanewise(XOR, s1x01).lanewise(XOR, s2xEF).lanewise(XOR, s3x5B);
                y01a = OUT1_A.selectFrom(z0, z1); y01b = OUT1_B.selectFrom(z0, z1);
                y23a = OUT1_A.selectFrom(z2, z3); y23b = OUT1_B.selectFrom(z2, z3);
                ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
                ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
                gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
                gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
                fa = ga0.add(ga1);
                fb = gb0.add(gb1);
                aX3 = aX3.lanewise(XOR, fa.add(ga1).add(k[r + 1])).lanewise(ROR, 1);
                aX2 = aX2.lanewise(ROL, 1).lanewise(XOR, fa.add(k[r]));
                bX3 = bX3.lanewise(XOR, fb.add(gb1).add(k[r + 1])).lanewise(ROR, 1);
                bX2 = bX2.lanewise(ROL, 1).lanewise(XOR, fb.add(k[r]));
            }
            // P = (x0, x1, x2, x3) ^ K0..K3.
            c0 = aX0.lanewise(XOR, k[0]);
            c1 = aX1.lanewise(XOR, k[1]);
            c2 = aX2.lanewise(XOR, k[2]);
            c3 = aX3.lanewise(XOR, k[3]);
            n0 = ST1_LO.selectFrom(c0, c1); n1 = ST1_HI.selectFrom(c0, c1);
            n2 = ST1_LO.selectFrom(c2, c3); n3 = ST1_HI.selectFrom(c2, c3);
            ST2_LO.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff);
            ST2_HI.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 64);
            ST2_LO.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 128);
            ST2_HI.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 192);
            c0 = bX0.lanewise(XOR, k[0]);
            c1 = bX1.lanewise(XOR, k[1]);
            c2 = bX2.lanewise(XOR, k[2]);
            c3 = bX3.lanewise(XOR, k[3]);
            n0 = ST1_LO.selectFrom(c0, c1); n1 = ST1_HI.selectFrom(c0, c1);
            n2 = ST1_LO.selectFrom(c2, c3); n3 = ST1_HI.selectFrom(c2, c3);
            ST2_LO.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 256);
            ST2_HI.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, outOff + 320);
            ST2_LO.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 384);
            ST2_HI.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, outOff + 448);
        }
    }
}
