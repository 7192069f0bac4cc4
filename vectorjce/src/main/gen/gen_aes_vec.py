#!/usr/bin/env python3
"""Generates the AES block-lane Vector API kernels AesVec512.java and AesVec256.java.

Why generated: C2 compiles Vector API code to vector instructions only when every operation is
inlined into one compilation unit and the species is a compile-time constant. Helper methods
(sub, mix, ...) hit C2's NodeCountInliningCutoff once four states are in flight, and every vector
that then crosses a call is boxed, which makes the kernel slower than scalar code. So each hot
method is emitted straight-line, one per width, and the methods take and return only arrays and ints.

Run:  python3 vectorjce/src/main/gen/gen_aes_vec.py   (from any folder; commit the output)
      python3 vectorjce/src/main/gen/gen_aes_vec.py --out DIR   (writes under DIR instead of src/main)
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "java25/org/vectorjce/internal/vector"

SR = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11]
ISR = [0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3]


def sub_lines(x, y, tables, vlen, ind):
    """y = 256-entry table lookup of bytes x, tables t0..t(n-1) (VLEN bytes each), in registers."""
    L = []
    pairs = 256 // (2 * vlen)
    if pairs == 2:  # 512-bit: two 128-entry halves, chosen by bit 7
        L.append(f"ByteVector {y}l = {x}.selectFrom({tables}0, {tables}1);")
        L.append(f"ByteVector {y}h = {x}.selectFrom({tables}2, {tables}3);")
        L.append(f"ByteVector {y} = {y}l.blend({y}h, {x}.compare(VectorOperators.LT, (byte) 0));")
    else:  # 256-bit: four 64-entry quarters, chosen by bits 6 and 7
        for q in range(4):
            L.append(f"ByteVector {y}{q} = {x}.selectFrom({tables}{2*q}, {tables}{2*q+1});")
        L.append(f"VectorMask<Byte> {y}b6 = {x}.lanewise(VectorOperators.AND, (byte) 0x40).compare(VectorOperators.NE, (byte) 0);")
        L.append(f"ByteVector {y} = {y}0.blend({y}1, {y}b6).blend({y}2.blend({y}3, {y}b6), {x}.compare(VectorOperators.LT, (byte) 0));")
    return [ind + l for l in L]


def xtime_lines(a, out, ind):
    """out = a * x in GF(2^8) bytewise: a + a, xor 0x1b where the top bit was set."""
    return [ind + f"ByteVector {out} = {a}.add({a}).lanewise(VectorOperators.XOR, (byte) 0x1b, {a}.compare(VectorOperators.LT, (byte) 0));"]


def mix_lines(y, out, ind):
    """MixColumns: b_i = 2a_i ^ 3a_(i+1) ^ a_(i+2) ^ a_(i+3) = xtime(a ^ rot1) ^ rot1 ^ rot2 ^ rot3."""
    L = [
        f"IntVector {y}a = {y}.reinterpretAsInts();",
        f"IntVector {y}r1 = {y}a.lanewise(VectorOperators.ROR, 8);",
        f"ByteVector {y}u = {y}a.lanewise(VectorOperators.XOR, {y}r1).reinterpretAsBytes();",
    ]
    L = [ind + l for l in L]
    L += xtime_lines(f"{y}u", f"{y}x", ind)
    L.append(ind + f"ByteVector {out} = {y}x.reinterpretAsInts().lanewise(VectorOperators.XOR, {y}r1)"
             f".lanewise(VectorOperators.XOR, {y}a.lanewise(VectorOperators.ROR, 16))"
             f".lanewise(VectorOperators.XOR, {y}a.lanewise(VectorOperators.ROR, 24)).reinterpretAsBytes();")
    return L


def invmix_pre_lines(y, out, ind):
    """InvMixColumns = MixColumns(a ^ 4·(a ^ rot2(a))): this is the a ^ 4·(a ^ rot2 a) part."""
    L = [ind + f"IntVector {y}a = {y}.reinterpretAsInts();",
         ind + f"ByteVector {y}v = {y}a.lanewise(VectorOperators.XOR, {y}a.lanewise(VectorOperators.ROR, 16)).reinterpretAsBytes();"]
    L += xtime_lines(f"{y}v", f"{y}v2", ind)
    L += xtime_lines(f"{y}v2", f"{y}v4", ind)
    L.append(ind + f"ByteVector {out} = {y}.lanewise(VectorOperators.XOR, {y}v4);")
    return L


def block_method(name, n, vlen, decrypt, masked):
    """A method that runs `n` vectors (n*VLEN bytes) through all rounds; masked: one partial vector."""
    tabs = "INV_SBOX" if decrypt else "SBOX"
    shuf = "INV_SHIFT_ROWS" if decrypt else "SHIFT_ROWS"
    ntab = 256 // vlen
    I = "        "
    L = []
    args = "byte[] in, int inOff, byte[] out, int outOff" + (", int len" if masked else "")
    L.append(f"    private void {name}({args}) {{")
    if masked:
        L.append(I + "VectorMask<Byte> m = SP.indexInRange(0, len);")
    for t in range(ntab):
        L.append(I + f"ByteVector t{t} = ByteVector.fromArray(SP, {tabs}, {t * vlen});")
    L.append(I + "final byte[] k = rk;")
    L.append(I + "final int nr = rounds;")
    first = "nr" if decrypt else "0"
    L.append(I + f"ByteVector k0 = ByteVector.fromArray(SP, k, {first} * VLEN);")
    for j in range(n):
        load = f"ByteVector.fromArray(SP, in, inOff{f' + {j} * VLEN' if j else ''}{', m' if masked else ''})"
        L.append(I + f"ByteVector s{j} = {load}.lanewise(VectorOperators.XOR, k0);")
    if decrypt:
        L.append(I + "for (int r = nr - 1; r > 0; r--) {")
    else:
        L.append(I + "for (int r = 1; r < nr; r++) {")
    J = I + "    "
    L.append(J + "ByteVector kr = ByteVector.fromArray(SP, k, r * VLEN);")
    for j in range(n):
        L.append(J + f"ByteVector x{j} = s{j}.rearrange({shuf});")
        L += sub_lines(f"x{j}", f"y{j}", "t", vlen, J)
        if decrypt:
            L.append(J + f"ByteVector z{j} = y{j}.lanewise(VectorOperators.XOR, kr);")
            L += invmix_pre_lines(f"z{j}", f"w{j}", J)
            L += mix_lines(f"w{j}", f"s{j}n", J)
            L.append(J + f"s{j} = s{j}n;")
        else:
            L += mix_lines(f"y{j}", f"m{j}", J)
            L.append(J + f"s{j} = m{j}.lanewise(VectorOperators.XOR, kr);")
    L.append(I + "}")
    last = "0" if decrypt else "nr"
    L.append(I + f"ByteVector kl = ByteVector.fromArray(SP, k, {last} * VLEN);")
    for j in range(n):
        L.append(I + f"ByteVector x{j} = s{j}.rearrange({shuf});")
        L += sub_lines(f"x{j}", f"y{j}", "t", vlen, I)
        L.append(I + f"y{j}.lanewise(VectorOperators.XOR, kl).intoArray(out, outOff{f' + {j} * VLEN' if j else ''}{', m' if masked else ''});")
    L.append("    }")
    return L


def generate(bits, cls, name, lanes, in_flight):
    vlen = bits // 8
    masked_tail = bits == 512  # AVX-512 masks bytes natively; see the 256-bit tail below
    blocks = in_flight * vlen // 16
    L = []
    L.append("// GENERATED by src/main/gen/gen_aes_vec.py: edit the generator, not this file.")
    L.append("package org.vectorjce.internal.vector;")
    L.append("")
    L.append("import java.util.Arrays;")
    L.append("import jdk.incubator.vector.ByteVector;")
    L.append("import jdk.incubator.vector.IntVector;")
    L.append("import jdk.incubator.vector.VectorMask;")
    L.append("import jdk.incubator.vector.VectorOperators;")
    L.append("import jdk.incubator.vector.VectorShuffle;")
    L.append("import jdk.incubator.vector.VectorSpecies;")
    L.append("import org.vectorjce.internal.aes.AesKeys;")
    L.append("import org.vectorjce.internal.kernel.BlockKernel;")
    L.append("")
    L.append("/**")
    L.append(f" * {{@code {name}}}: AES (FIPS 197) with whole blocks in vector lanes — {lanes} blocks per {bits}-bit")
    L.append(f" * vector, {in_flight} vectors ({blocks} blocks) in flight per call of the main step, so the")
    L.append(" * rounds of independent states overlap. The round steps:")
    L.append(" * <ul>")
    L.append(" *   <li>SubBytes: a 256-entry lookup held in registers — two-vector byte permutes")
    L.append(f" *       ({{@code selectFrom(v1, v2)}}, vpermi2b) over {2 * vlen}-entry slices, blended on the index's high bits;</li>")
    L.append(" *   <li>ShiftRows: a fixed byte shuffle of every 16-byte lane;</li>")
    L.append(" *   <li>MixColumns: 32-bit column rotations and a bytewise xtime; InvMixColumns as")
    L.append(" *       MixColumns after a ^= 4·(a ^ rot2(a)).</li>")
    L.append(" * </ul>")
    L.append(" * <p><b>Constant-time</b>: no memory access and no branch depends on secret data (the S-box")
    L.append(" * tables are loaded whole into registers; partial vectors use masks, not data-dependent loops).")
    L.append(" */")
    L.append(f"final class {cls} extends BlockKernel {{")
    L.append(f"    static final String NAME = \"{name}\";")
    L.append(f"    private static final VectorSpecies<Byte> SP = ByteVector.SPECIES_{bits};")
    L.append("")
    L.append("    /** Bytes per vector. */")
    L.append("    private static final int VLEN = SP.length();")
    L.append(f"    /** Bytes per main step: {in_flight} vectors. */")
    L.append(f"    private static final int STEP = {in_flight} * VLEN;")
    L.append("    private static final byte[] SBOX = AesKeys.sbox();")
    L.append("    private static final byte[] INV_SBOX = AesKeys.invSbox();")
    L.append("    /** ShiftRows and its inverse on every 16-byte lane (FIPS 197 §5.1.2, §5.3.1). */")
    L.append(f"    private static final VectorShuffle<Byte> SHIFT_ROWS = blockShuffle(new int[] {{{', '.join(map(str, SR))}}});")
    L.append(f"    private static final VectorShuffle<Byte> INV_SHIFT_ROWS = blockShuffle(new int[] {{{', '.join(map(str, ISR))}}});")
    L.append("")
    L.append("    private static VectorShuffle<Byte> blockShuffle(int[] perBlock) {")
    L.append("        int[] idx = new int[VLEN];")
    L.append("        for (int i = 0; i < VLEN; i++) {")
    L.append("            idx[i] = (i & ~15) + perBlock[i & 15];")
    L.append("        }")
    L.append("        return VectorShuffle.fromArray(SP, idx, 0);")
    L.append("    }")
    L.append("")
    L.append("    private final int rounds;")
    L.append("    /** Round key r at bytes {@code [r*VLEN, (r+1)*VLEN)}: the 16 key bytes repeated in every lane. */")
    L.append("    private final byte[] rk;")
    if not masked_tail:
        L.append("    /** The last block of an odd-length call, as a whole vector; zeroed after use. */")
        L.append("    private final byte[] pad = new byte[VLEN];")
    L.append("")
    L.append(f"    {cls}(byte[] key) {{")
    L.append("        super(NAME);")
    L.append("        rounds = key.length / 4 + 6;")
    L.append("        rk = new byte[(rounds + 1) * VLEN];")
    L.append("        setKey(key);")
    L.append("    }")
    L.append("")
    L.append("    /** Re-key in place: same key length, same round-key array (overwritten, so the old one is gone). */")
    L.append("    @Override")
    L.append("    public boolean rekey(byte[] key) {")
    L.append("        if (key.length / 4 + 6 != rounds) {")
    L.append("            return false;")
    L.append("        }")
    L.append("        setKey(key);")
    L.append("        return true;")
    L.append("    }")
    L.append("")
    L.append("    private void setKey(byte[] key) {")
    L.append("        int[] w = AesKeys.expand(key);")
    L.append("        for (int r = 0; r <= rounds; r++) {")
    L.append("            for (int j = 0; j < VLEN; j++) {")
    L.append("                int word = w[4 * r + ((j & 15) >> 2)];")
    L.append("                rk[r * VLEN + j] = (byte) (word >>> (24 - 8 * (j & 3)));")
    L.append("            }")
    L.append("        }")
    L.append("        Arrays.fill(w, 0);")
    L.append("    }")
    L.append("")
    for dec in (False, True):
        verb = "decrypt" if dec else "encrypt"
        L.append("    @Override")
        L.append(f"    public void {verb}Blocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {{")
        L.append("        int len = blocks * 16;")
        L.append("        int i = 0;")
        L.append("        for (; i + STEP <= len; i += STEP) {")
        L.append(f"            {verb}Step(in, inOff + i, out, outOff + i);")
        L.append("        }")
        if masked_tail:
            L.append("        // Tail ladder: whole vectors, then one masked partial vector (still constant-time).")
            L.append("        for (; i < len; i += VLEN) {")
            L.append(f"            {verb}Vector(in, inOff + i, out, outOff + i, Math.min(VLEN, len - i));")
            L.append("        }")
        else:
            L.append("        // Tail: whole vectors, then a last block through a whole scratch vector: AVX2 has no")
            L.append("        // byte-masked loads and stores, and C2 boxes masked ByteVector accesses there (a CBC")
            L.append("        // encryption, one block per call, would allocate on every block and run far slower).")
            L.append("        for (; i < len; i += VLEN) {")
            L.append("            if (len - i >= VLEN) {")
            L.append(f"                {verb}Vector(in, inOff + i, out, outOff + i);")
            L.append("            } else {")
            L.append("                System.arraycopy(in, inOff + i, pad, 0, len - i);")
            L.append(f"                {verb}Vector(pad, 0, pad, 0);")
            L.append("                System.arraycopy(pad, 0, out, outOff + i, len - i);")
            L.append("                Arrays.fill(pad, (byte) 0);")
            L.append("            }")
            L.append("        }")
        L.append("    }")
        L.append("")
    for dec in (False, True):
        verb = "decrypt" if dec else "encrypt"
        L.append(f"    /** {in_flight} vectors through all rounds, straight-line (see the generator's note on inlining). */")
        L += block_method(f"{verb}Step", in_flight, vlen, dec, False)
        L.append("")
        if masked_tail:
            L.append("    /** One vector, masked to {@code len} bytes (a multiple of 16). */")
        else:
            L.append("    /** One whole vector. */")
        L += block_method(f"{verb}Vector", 1, vlen, dec, masked_tail)
        L.append("")
    L.append("    @Override")
    L.append("    public void destroy() {")
    L.append("        Arrays.fill(rk, (byte) 0);")
    L.append("    }")
    L.append("}")
    (OUT / f"{cls}.java").write_text("\n".join(L) + "\n")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Generates AesVec512.java and AesVec256.java.")
    ap.add_argument("inflight", type=int, nargs="?", default=4, help="vectors in flight (default 4)")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT,
                    help="folder standing for src/main (default: this module's src/main)")
    args = ap.parse_args()
    inflight = args.inflight
    OUT = args.out / OUT.relative_to(ROOT)
    OUT.mkdir(parents=True, exist_ok=True)
    generate(512, "AesVec512", "aes-vec512-4lane", 4, inflight)
    generate(256, "AesVec256", "aes-vec256-2lane", 2, inflight)
