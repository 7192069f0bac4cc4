#!/usr/bin/env python3
"""Generates Serpent's round code: the scalar core SerpentCore.java (one block at a time, the
S-boxes as boolean circuits on 32-bit words) and the Vector API kernels SerpentVec128/256/512.java
(the same circuits lanewise on IntVector, one block per int lane).

Why generated: the rounds are the same circuit sequence four times over (8 S-boxes each), in a
scalar and three vector widths, and the S-box circuits move their outputs between registers; a
generator tracks which variable holds which word, so no move is emitted, and checks every circuit
against the specification's S-box table before it writes a line. C2 vectorises the Vector API
only when every operation sits in one compilation unit with a constant species: each hot method
is emitted as one loop of eight rounds (under HugeMethodLimit, 8000 bytecodes; a fully unrolled
32-round body is not) that takes and returns only arrays and ints.

Sources: Serpent (Anderson, Biham, Knudsen, AES submission, 1998), the bitslice description
(sections 2 and 3: S-boxes S0..S7, linear transformation LT, key schedule with phi = 0x9e3779b9).
The S-box circuits are Dag Arne Osvik's published forms ("Speeding up Serpent", AES3, 2000),
written here as sequences of and/or/xor/not on five registers; the generator simulates each over
all 16 inputs and derives where each output bit lands.

Run:  python3 vectorjce/src/main/gen/gen_serpent.py   (from any folder; commit the output)
      python3 vectorjce/src/main/gen/gen_serpent.py --out DIR   (writes under DIR instead of src/main)
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT_SCALAR = ROOT / "java/org/vectorjce/internal/serpent"
OUT_VECTOR = ROOT / "java25/org/vectorjce/internal/vector"

# The specification's S-boxes (table form, section 2 of the submission).
SBOX = [
    [3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12],
    [15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4],
    [8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2],
    [0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14],
    [1, 15, 8, 3, 12, 0, 11, 6, 2, 5, 4, 10, 9, 14, 7, 13],
    [15, 5, 2, 11, 4, 10, 9, 12, 0, 3, 14, 8, 13, 6, 7, 1],
    [7, 2, 12, 5, 8, 4, 6, 11, 14, 9, 1, 15, 13, 3, 10, 0],
    [1, 13, 15, 0, 14, 8, 2, 11, 7, 4, 12, 10, 9, 3, 5, 6],
]
INV = [[s.index(v) for v in range(16)] for s in SBOX]

# Osvik's circuits: registers 0..3 hold input bits 0..3 (word X0 is the least significant bit of
# each S-box input), register 4 starts free. "a=b" copies, "a=~a" complements.
CIRCUITS = {
    "S0": "4=3 3|0 0^4 4^2 4~ 3^1 1&0 1^4 2^0 0^3 4|0 0^2 2&1 3^2 1~ 2^4 1^2",
    "S1": "4=1 1^0 0^3 3~ 4&1 0|1 3^2 0^3 1^3 3^4 1|4 4^2 2&0 2^1 1|0 0~ 0^2 4^1",
    "S2": "3~ 1^0 4=0 0&2 0^3 3|4 2^1 3^1 1&0 0^2 2&3 3|1 0~ 3^0 4^0 0^2 1|2",
    "S3": "4=1 1^3 3|0 4&0 0^2 2^1 1&3 2^3 0|4 4^3 1^0 0&3 3&4 3^2 4|1 2&1 4^3 0^3 3^2",
    "S4": "4=3 3&0 0^4 3^2 2|4 0^1 4^3 2|0 2^1 1&0 1^4 4&2 2^3 4^0 3|1 1~ 3^0",
    "S5": "4=1 1|0 2^1 3~ 4^0 0^2 1&4 4|3 4^0 0&3 1^3 3^2 0^1 2&4 1^2 2&0 3^2",
    "S6": "4=1 3^0 1^2 2^0 0&3 1|3 4~ 0^1 1^2 3^4 4^0 2&0 4^1 2^3 3&1 3^0 1^2",
    "S7": "1~ 4=1 0~ 1&2 1^3 3|4 4^2 2^3 3^0 0|1 2&0 0^4 4^3 3&0 4^1 2^4 3^1 4|0 4^1",
    "SI0": "4=3 1^0 3|1 4^1 0~ 2^3 3^0 0&1 0^2 2&3 3^4 2^3 1^3 3&0 1^0 0^2 4^3",
    "SI1": "1^3 4=0 0^2 2~ 4|1 4^3 3&1 1^2 2&4 4^1 1|3 3^0 2^0 0|4 2^4 1^0 4^1",
    "SI2": "2^1 4=3 3~ 3|2 2^4 4^0 3^1 1|2 2^0 1^4 4|3 2^3 4^2 2&1 2^3 3^4 4^0",
    "SI3": "2^1 4=1 1&2 1^0 0|4 4^3 0^3 3|1 1^2 1^3 0^2 2^3 3&1 1^0 0&2 4^3 3^0 0^1",
    "SI4": "2^3 4=0 0&1 0^2 2|3 4~ 1^0 0^2 2&4 2^0 0|4 0^3 3&2 4^3 3^1 1&0 4^1 0^3",
    "SI5": "4=1 1|2 2^4 1^3 3&4 2^3 3|0 0~ 3^2 2|0 4^1 2^4 4&0 0^1 1^3 0&2 2^3 0^2 2^4 4^3",
    "SI6": "0^2 4=0 0&3 2^3 0^2 3^1 2|4 2^3 3&0 0~ 3^1 1&2 4^0 3^4 4^2 0^1 2^0",
    "SI7": "4=3 3&0 0^2 2|4 4^1 0~ 1|3 4^0 0&2 0^1 1&2 3^2 4^3 2&3 3|0 1^4 3^4 4&0 4^2",
}


def parse(text):
    ops = []
    for t in text.split():
        a = int(t[0])
        if t[1] == "~":
            ops.append(("not", a, None))
        else:
            ops.append(({"=": "mov", "|": "or", "^": "xor", "&": "and"}[t[1]], a, int(t[2])))
    return ops


def outputs(name, table):
    """Simulates circuit `name` on all 16 inputs; returns reg[b], the register holding output bit b."""
    ops = parse(CIRCUITS[name])
    reg = [sum(1 << v for v in range(16) if (v >> i) & 1) for i in range(4)] + [None]
    for op, a, b in ops:
        if op == "mov":
            reg[a] = reg[b]
        elif op == "not":
            reg[a] ^= 0xFFFF
        elif op == "or":
            reg[a] |= reg[b]
        elif op == "xor":
            reg[a] ^= reg[b]
        else:
            reg[a] &= reg[b]
    out = []
    for bit in range(4):
        want = sum(1 << v for v in range(16) if (table[v] >> bit) & 1)
        found = [r for r in range(5) if reg[r] == want]
        if not found:
            raise SystemExit(f"{name}: output bit {bit} is in no register: circuit or table wrong")
        out.append(found[0])
    if len(set(out)) != 4:
        raise SystemExit(f"{name}: two output bits in one register")
    return ops, out


SB = {}
for i in range(8):
    SB[f"S{i}"] = outputs(f"S{i}", SBOX[i])
    SB[f"SI{i}"] = outputs(f"SI{i}", INV[i])


class Dialect:
    """How one operation on words is written: scalar ints or IntVector."""

    def __init__(self, vector):
        self.vector = vector

    def op(self, op, a, b):
        if not self.vector:
            return {"mov": f"{a} = {b};", "not": f"{a} = ~{a};", "or": f"{a} |= {b};",
                    "xor": f"{a} ^= {b};", "and": f"{a} &= {b};"}[op]
        return {"mov": f"{a} = {b};", "not": f"{a} = {a}.not();", "or": f"{a} = {a}.or({b});",
                "xor": f"{a} = {a}.lanewise(XOR, {b});", "and": f"{a} = {a}.and({b});"}[op]

    def rol(self, a, n):
        return f"Integer.rotateLeft({a}, {n})" if not self.vector else f"{a}.lanewise(ROL, {n})"

    def ror(self, a, n):
        return f"Integer.rotateRight({a}, {n})" if not self.vector else f"{a}.lanewise(ROR, {n})"

    def shl(self, a, n):
        return f"({a} << {n})" if not self.vector else f"{a}.lanewise(LSHL, {n})"

    def xor3(self, a, b, c):
        return f"{a} ^ {b} ^ {c}" if not self.vector else f"{a}.lanewise(XOR, {b}).lanewise(XOR, {c})"

    def xork(self, a, k):
        return f"{a} ^= {k};" if not self.vector else f"{a} = {a}.lanewise(XOR, {k});"


class State:
    """One set of four words in five variables: L[i] is the variable of word Xi, free the fifth."""

    def __init__(self, prefix):
        self.v = [f"{prefix}{i}" for i in range(5)]
        self.L = [0, 1, 2, 3]
        self.free = 4

    def w(self, i):
        return self.v[self.L[i]]

    def sbox(self, d, name):
        ops, out = SB[name]
        phys = self.L + [self.free]  # circuit register r -> variable index
        lines = []
        for op, a, b in ops:
            lines.append(d.op(op, self.v[phys[a]], None if b is None else self.v[phys[b]]))
        newL = [phys[out[bit]] for bit in range(4)]
        self.free = ({0, 1, 2, 3, 4} - set(newL)).pop()
        self.L = newL
        return lines

    def lt(self, d):
        x0, x1, x2, x3 = (self.w(i) for i in range(4))
        return [
            f"{x0} = {d.rol(x0, 13)};",
            f"{x2} = {d.rol(x2, 3)};",
            f"{x1} = {d.xor3(x1, x0, x2)};" if d.vector else f"{x1} ^= {x0} ^ {x2};",
            f"{x3} = {d.xor3(x3, x2, d.shl(x0, 3))};" if d.vector else f"{x3} ^= {x2} ^ {d.shl(x0, 3)};",
            f"{x1} = {d.rol(x1, 1)};",
            f"{x3} = {d.rol(x3, 7)};",
            f"{x0} = {d.xor3(x0, x1, x3)};" if d.vector else f"{x0} ^= {x1} ^ {x3};",
            f"{x2} = {d.xor3(x2, x3, d.shl(x1, 7))};" if d.vector else f"{x2} ^= {x3} ^ {d.shl(x1, 7)};",
            f"{x0} = {d.rol(x0, 5)};",
            f"{x2} = {d.rol(x2, 22)};",
        ]

    def ilt(self, d):
        x0, x1, x2, x3 = (self.w(i) for i in range(4))
        return [
            f"{x2} = {d.ror(x2, 22)};",
            f"{x0} = {d.ror(x0, 5)};",
            f"{x2} = {d.xor3(x2, x3, d.shl(x1, 7))};" if d.vector else f"{x2} ^= {x3} ^ {d.shl(x1, 7)};",
            f"{x0} = {d.xor3(x0, x1, x3)};" if d.vector else f"{x0} ^= {x1} ^ {x3};",
            f"{x3} = {d.ror(x3, 7)};",
            f"{x1} = {d.ror(x1, 1)};",
            f"{x3} = {d.xor3(x3, x2, d.shl(x0, 3))};" if d.vector else f"{x3} ^= {x2} ^ {d.shl(x0, 3)};",
            f"{x1} = {d.xor3(x1, x0, x2)};" if d.vector else f"{x1} ^= {x0} ^ {x2};",
            f"{x2} = {d.ror(x2, 3)};",
            f"{x0} = {d.ror(x0, 13)};",
        ]

    def key(self, d, kexpr):
        return [d.xork(self.w(i), kexpr(i)) for i in range(4)]

    def canonical(self, d, typ):
        """Moves the words back to variables 0..3 (free for C2's register allocator)."""
        if self.L == [0, 1, 2, 3]:
            return []
        tmp = [f"{typ} {self.v[0]}n{i} = {self.w(i)};" for i in range(4)]
        back = [f"{self.v[i]} = {self.v[0]}n{i};" for i in range(4)]
        self.L = [0, 1, 2, 3]
        self.free = 4
        return tmp + back


def interleave(parts):
    """Lines of several independent states, one statement of each in turn (independent work in flight)."""
    out = []
    n = max(len(p) for p in parts)
    for i in range(n):
        for p in parts:
            if i < len(p):
                out.append(p[i])
    return out


def encrypt_body(d, states, typ, ind):
    """The 32 rounds as a loop of 8 (K, S, LT), then LT undone and K32 (section 3: the last round
    has K32 instead of LT; running LT there and undoing it keeps the loop body uniform)."""
    L = [ind + "for (int r = 0; r < 128; r += 32) {"]
    for s in range(8):
        L += [ind + "    " + x for x in interleave([st.key(d, lambda i, s=s: f"k[r + {4 * s + i}]") for st in states])]
        L += [ind + "    " + x for x in interleave([st.sbox(d, f"S{s}") for st in states])]
        L += [ind + "    " + x for x in interleave([st.lt(d) for st in states])]
    L += [ind + "    " + x for x in interleave([st.canonical(d, typ) for st in states])]
    L.append(ind + "}")
    L += [ind + x for x in interleave([st.ilt(d) for st in states])]
    L += [ind + x for x in interleave([st.key(d, lambda i: f"k[{128 + i}]") for st in states])]
    return L


def decrypt_body(d, states, typ, ind):
    """The inverse: K32, then LT (which the loop's first ILT undoes), then 32 x (ILT, SI, K)."""
    L = []
    L += [ind + x for x in interleave([st.key(d, lambda i: f"k[{128 + i}]") for st in states])]
    L += [ind + x for x in interleave([st.lt(d) for st in states])]
    L.append(ind + "for (int r = 96; r >= 0; r -= 32) {")
    for s in range(7, -1, -1):
        L += [ind + "    " + x for x in interleave([st.ilt(d) for st in states])]
        L += [ind + "    " + x for x in interleave([st.sbox(d, f"SI{s}") for st in states])]
        L += [ind + "    " + x for x in interleave([st.key(d, lambda i, s=s: f"k[r + {4 * s + i}]") for st in states])]
    L += [ind + "    " + x for x in interleave([st.canonical(d, typ) for st in states])]
    L.append(ind + "}")
    return L


HEADER = "// GENERATED by src/main/gen/gen_serpent.py: edit the generator, not this file.\n"


def scalar():
    d = Dialect(False)
    out = [HEADER + "package org.vectorjce.internal.serpent;", "",
           "/**",
           " * Serpent's rounds on one block, in the specification's bitslice form (Anderson, Biham,",
           " * Knudsen, section 3): four 32-bit words, each S-box a boolean circuit (Osvik's forms) applied",
           " * to the 32 bit positions at once, so there is no table and no secret-dependent branch or",
           " * memory index. Words are little-endian, as NESSIE, Linux and Bouncy Castle's",
           " * {@code SerpentEngine} read a block.",
           " */",
           "final class SerpentCore {",
           "    private SerpentCore() {",
           "    }", ""]
    # key schedule S-box application: K_i = S_{(3 - i) mod 8}(w_4i .. w_4i+3), in place
    out += ["    /** Applies S-box {@code s} (0..7) in place to the four words {@code w[o .. o+3]}. */",
            "    static void sbox(int s, int[] w, int o) {",
            "        int x0 = w[o], x1 = w[o + 1], x2 = w[o + 2], x3 = w[o + 3], x4 = 0;",
            "        switch (s) {"]
    for s in range(8):
        st = State("x")
        body = st.sbox(d, f"S{s}")
        out.append(f"            case {s} -> {{")
        out += ["                " + x for x in body]
        out += [f"                w[o + {i}] = {st.w(i)};" for i in range(4)]
        out.append("            }")
    out += ["            default -> throw new IllegalArgumentException(\"S-box \" + s);",
            "        }", "    }", ""]
    for enc in (True, False):
        name = "encrypt" if enc else "decrypt"
        out += [f"    /** {'Encrypts' if enc else 'Decrypts'} the block at {{@code in[inOff]}} into {{@code out[outOff]}} with subkeys {{@code k}} (132 words). */",
                f"    static void {name}(int[] k, byte[] in, int inOff, byte[] out, int outOff) {{",
                "        int x0 = le(in, inOff), x1 = le(in, inOff + 4), x2 = le(in, inOff + 8), x3 = le(in, inOff + 12);",
                "        int x4 = 0;"]
        st = State("x")
        out += (encrypt_body if enc else decrypt_body)(d, [st], "int", "        ")
        out += [f"        putLe(out, outOff + {4 * i}, {st.w(i)});" for i in range(4)]
        out += ["    }", ""]
    out += ["    private static final java.lang.invoke.VarHandle LE =",
            "            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);",
            "",
            "    static int le(byte[] b, int o) {",
            "        return (int) LE.get(b, o);",
            "    }", "",
            "    static void putLe(byte[] b, int o, int v) {",
            "        LE.set(b, o, v);",
            "    }",
            "}"]
    (OUT_SCALAR / "SerpentCore.java").write_text("\n".join(out) + "\n")


VEC = {
    128: ("SerpentVec128", "serpent-vec128-8way", "SPECIES_128"),
    256: ("SerpentVec256", "serpent-vec256-16way", "SPECIES_256"),
    512: ("SerpentVec512", "serpent-vec512-32way", "SPECIES_512"),
}
SETS = 2

# Widths whose round keys are kept as vectors, one copy per set (see KEY_VECTORS_DOC); the
# 512-bit kernel (32 zmm registers) keeps broadcasting the scalar words.
KEY_VECTORS = {128, 256}
KEY_VECTORS_DOC = [
    "    /**",
    "     * The round keys as vectors, each word broadcast, one copy per set: word w of set s at",
    "     * {@code (SETS w + s) LANES}. With scalar words, C2 hoists the broadcasts of a method's",
    "     * keys to its start, and with 16 vector registers (AVX2) it then spills them and state words",
    "     * to the stack; a vector load with one use is instead folded into its XOR as a memory",
    "     * operand, which takes no register and no broadcast. Two sets need two copies: one load",
    "     * shared by both would have two uses and stand alone again.",
    "     */",
]


def vector(bits):
    cls, name, species = VEC[bits]
    lanes = bits // 32
    way = lanes * SETS
    kv = bits in KEY_VECTORS
    d = Dialect(True)

    def kexpr(si, idx):
        """The round-key operand of set si for key word idx (a Java int expression)."""
        if kv:
            return f"IntVector.fromArray(S, k, ({idx}) * SETS * LANES + {si} * LANES)"
        return f"k[{idx}]"
    def tw_set(si):
        """XTS tweaks of set si into tw (see tweaks()): lane i is B·α^i, B the set's first tweak."""
        L = [f"        IntVector a{si}0 = IntVector.broadcast(S, (int) lo), a{si}1 = IntVector.broadcast(S, (int) (lo >>> 32));",
             f"        IntVector a{si}2 = IntVector.broadcast(S, (int) hi), a{si}3 = IntVector.broadcast(S, (int) (hi >>> 32));"]
        for j in range(4):
            L.append(f"        IntVector c{si}{j} = a{si}{j}.lanewise(LSHR, 1).lanewise(LSHR, down);")
        L += [f"        IntVector r{si} = c{si}3.lanewise(XOR, c{si}3.lanewise(LSHL, 1)).lanewise(XOR, c{si}3.lanewise(LSHL, 2)).lanewise(XOR, c{si}3.lanewise(LSHL, 7));",
              f"        a{si}0.lanewise(LSHL, up).lanewise(XOR, r{si}).intoArray(tw, {4 * si} * LANES);",
              f"        a{si}1.lanewise(LSHL, up).or(c{si}0).intoArray(tw, {4 * si + 1} * LANES);",
              f"        a{si}2.lanewise(LSHL, up).or(c{si}1).intoArray(tw, {4 * si + 2} * LANES);",
              f"        a{si}3.lanewise(LSHL, up).or(c{si}2).intoArray(tw, {4 * si + 3} * LANES);"]
        L += ["        top = hi >>> (64 - LANES); // the next set's first tweak (after the last set: the next batch's): T·α^LANES",
              "        hi = (hi << LANES) | (lo >>> (64 - LANES));",
              "        lo = (lo << LANES) ^ top ^ (top << 1) ^ (top << 2) ^ (top << 7);"]
        return L

    out = [HEADER + "package org.vectorjce.internal.vector;", "",
           "import static jdk.incubator.vector.VectorOperators.LSHL;",
           "import static jdk.incubator.vector.VectorOperators.LSHR;",
           "import static jdk.incubator.vector.VectorOperators.ROL;",
           "import static jdk.incubator.vector.VectorOperators.ROR;",
           "import static jdk.incubator.vector.VectorOperators.XOR;", "",
           "import java.util.Arrays;",
           "import jdk.incubator.vector.ByteVector;",
           "import jdk.incubator.vector.IntVector;",
           "import jdk.incubator.vector.VectorMask;",
           "import jdk.incubator.vector.VectorShuffle;",
           "import jdk.incubator.vector.VectorSpecies;",
           "import org.vectorjce.internal.kernel.BlockKernel;",
           "import org.vectorjce.internal.serpent.SerpentBitslice;", "",
           "/**",
           f" * {{@code {name}}}: Serpent's bitslice rounds across blocks, one block per int lane of {bits}-bit",
           f" * {{@code IntVector}}s: {lanes} blocks per set of four word vectors, {SETS} sets in flight, so {way}",
           " * blocks per batch (the shape of Linux {@code serpent-avx2}: 16 blocks in two ymm sets). A batch",
           " * is transposed into word vectors (vector j holds word Xj of each block), the 32 rounds run with",
           " * lanewise and/or/xor/not and lanewise rotations, and the words are transposed back. The S-box",
           " * circuits and the order of operations are those of {@code SerpentCore} (same generator).",
           " *",
           " * <p><b>Constant-time by construction</b>: no table, no secret-dependent branch or index; the",
           " * subkeys are read at indices that depend on the round only. A tail shorter than a batch runs on",
           " * {@code serpent-bitslice}, which is constant-time too, so short calls need no padding.",
           " */",
           f"public final class {cls} extends BlockKernel {{",
           "    /** Registry name. */",
           f"    static final String NAME = \"{name}\";", "",
           "    /** Compile-time constant species: C2 intrinsifies only constant species. */",
           f"    private static final VectorSpecies<Integer> S = IntVector.{species};", "",
           f"    /** Int lanes per vector. */",
           f"    private static final int LANES = {lanes};", "",
           *([f"    /** Sets of four word vectors in flight. */",
              f"    private static final int SETS = {SETS};", ""] if kv else []),
           f"    /** Blocks per batch: {SETS} sets of {lanes}. */",
           f"    static final int WAY = {way};", "",
           "    /** The key's schedule and its one-block code (tails), wiped by {@link #destroy}. */",
           "    private final SerpentBitslice scalar;", ""]
    if kv:
        out += KEY_VECTORS_DOC + ["    private final int[] kv = new int[132 * SETS * LANES];", ""]
    out += [
           "    /** Words of one batch, word-major: set s, word j at {@code (4 s + j) * LANES}. */",
           f"    private final int[] t = new int[{4 * way}];", "",
           "    /** XTS: the batch's tweaks in the same layout (key material: wiped with the key). */",
           f"    private final int[] tw = new int[{4 * way}];", "",
           f"    {cls}(byte[] key) {{",
           "        super(NAME);",
           "        scalar = SerpentBitslice.schedule(key);"]
    if kv:
        out += ["        spread();"]
    out += ["    }", "",
           "    @Override",
           "    public boolean rekey(byte[] key) {",
           "        Arrays.fill(t, 0); // the old key's last batch",
           "        Arrays.fill(tw, 0);"]
    if kv:
        out += ["        boolean ok = scalar.rekey(key);",
                "        spread();",
                "        return ok;"]
    else:
        out += ["        return scalar.rekey(key);"]
    out += ["    }", ""]
    if kv:
        out += ["    /** Fills {@link #kv} from the scalar schedule. */",
                "    private void spread() {",
                "        int[] k = scalar.subkeys();",
                "        for (int w = 0, o = 0; w < 132; w++) { // vector stores: a new key per message pays for this",
                "            IntVector x = IntVector.broadcast(S, k[w]);",
                "            for (int s = 0; s < SETS; s++, o += LANES) {",
                "                x.intoArray(kv, o);",
                "            }",
                "        }",
                "    }", ""]
    out += [
           "    @Override",
           "    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {",
           "        int[] k = " + ("kv;" if kv else "scalar.subkeys();"),
           "        while (blocks >= WAY) {",
           "            load(in, inOff);",
           "            encryptBatch(k, t);",
           "            store(out, outOff);",
           "            inOff += 16 * WAY;",
           "            outOff += 16 * WAY;",
           "            blocks -= WAY;",
           "        }",
           "        scalar.encryptBlocks(in, inOff, out, outOff, blocks);",
           "    }", "",
           "    @Override",
           "    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {",
           "        int[] k = " + ("kv;" if kv else "scalar.subkeys();"),
           "        while (blocks >= WAY) {",
           "            load(in, inOff);",
           "            decryptBatch(k, t);",
           "            store(out, outOff);",
           "            inOff += 16 * WAY;",
           "            outOff += 16 * WAY;",
           "            blocks -= WAY;",
           "        }",
           "        scalar.decryptBlocks(in, inOff, out, outOff, blocks);",
           "    }", "",
           "    /**",
           "     * CTR with the counter blocks made in word form, so a batch needs no load transposition:",
           "     * words X0..X2 are the counter's top 96 bits, the same in every lane, and X3 is its low 32",
           "     * bits plus the lane's block index (byte-swapped: the counter is big-endian, a block's",
           "     * words little-endian). The key stream is transposed back and XORed into the data in",
           "     * registers. A batch in which the low 32 bits would wrap is left to the CTR mode, which",
           "     * carries into the words above.",
           "     */",
           "    /** A call of fewer blocks runs on {@code serpent-bitslice}. */",
           "    @Override",
           "    public int batchBlocks() {",
           "        return WAY;",
           "    }", "",
           "    @Override",
           "    public int ctrXor(long[] ctr, byte[] in, int inOff, byte[] out, int outOff, int blocks) {",
           "        int[] k = " + ("kv;" if kv else "scalar.subkeys();"),
           "        long hi = ctr[0], lo = ctr[1];",
           "        int done = 0;",
           "        while (blocks - done >= WAY && Integer.compareUnsigned((int) lo, -WAY) <= 0) {",
           "            counters(hi, lo);",
           "            encryptBatch(k, t);",
           "            storeXor(in, inOff, out, outOff);",
           "            lo += WAY;",
           "            if (Long.compareUnsigned(lo, WAY) < 0) { // carry out of the low 64 bits",
           "                hi++;",
           "            }",
           "            inOff += 16 * WAY;",
           "            outOff += 16 * WAY;",
           "            done += WAY;",
           "        }",
           "        ctr[0] = hi;",
           "        ctr[1] = lo;",
           "        return done;",
           "    }", "",
           "    /** The words of counter blocks {hi, lo} .. {hi, lo + WAY - 1} (no wrap of the low 32 bits) into {@link #t}. */",
           "    private void counters(long hi, long lo) {",
           "        int[] t = this.t;",
           "        IntVector w0 = IntVector.broadcast(S, Integer.reverseBytes((int) (hi >>> 32)));",
           "        IntVector w1 = IntVector.broadcast(S, Integer.reverseBytes((int) hi));",
           "        IntVector w2 = IntVector.broadcast(S, Integer.reverseBytes((int) (lo >>> 32)));",
           "        int c = (int) lo;",
           *[x for si in range(SETS) for x in (
               f"        w0.intoArray(t, {4 * si} * LANES);",
               f"        w1.intoArray(t, {4 * si + 1} * LANES);",
               f"        w2.intoArray(t, {4 * si + 2} * LANES);",
               f"        IntVector.fromArray(S, LANE, {si} * LANES).add(c).reinterpretAsBytes().rearrange(BSWAP).reinterpretAsInts()"
               f".intoArray(t, {4 * si + 3} * LANES);")],
           "    }", "",
           "    /**",
           "     * XTS with the tweaks made in the batch's word layout: each batch's WAY tweaks T·α^j come",
           "     * from its first by lanewise shifts (no tweak pass over memory), are XORed into the words",
           "     * after the load transposition and again before the store transposition.",
           "     */",
           "    @Override",
           "    public int xts(boolean encrypt, long[] tweak, byte[] in, int inOff, byte[] out, int outOff, int blocks) {",
           "        int[] k = " + ("kv;" if kv else "scalar.subkeys();") + "",
           "        int done = 0;",
           "        while (blocks - done >= WAY) {",
           "            tweaks(tweak);",
           "            load(in, inOff);",
           "            xorTweaks();",
           "            if (encrypt) {",
           "                encryptBatch(k, t);",
           "            } else {",
           "                decryptBatch(k, t);",
           "            }",
           "            xorTweaks();",
           "            store(out, outOff);",
           "            inOff += 16 * WAY;",
           "            outOff += 16 * WAY;",
           "            done += WAY;",
           "        }",
           "        return done;",
           "    }",
           "",
           "    /**",
           "     * The words of tweaks T·α^j, j < WAY, into {@link #tw}, T = {@code tweak} ({lo, hi}, little-endian",
           "     * halves), which is left at T·α^WAY, the next batch's:",
           "     * block j = s LANES + i is lane i of set s, whose first tweak B = T·α^(s LANES) is made",
           "     * here; lane i holds B·α^i = (B << i) with the i bits shifted out of the top reduced by",
           "     * x^128 = x^7 + x^2 + x + 1 (i < 16, so the reduction stays in word 0).",
           "     */",
           "    private void tweaks(long[] tweak) {",
           "        int[] tw = this.tw;",
           "        long lo = tweak[0], hi = tweak[1];",
           "        IntVector up = IntVector.fromArray(S, LANE, 0); // i",
           "        IntVector down = IntVector.fromArray(S, LANE_DOWN, 0); // x >>> 1 >>> (31 - i) is x >>> (32 - i), and 0 for i = 0",
           "        long top;",
           *[x for si in range(SETS) for x in tw_set(si)],
           "        tweak[0] = lo;",
           "        tweak[1] = hi;",
           "    }",
           "",
           "    /** {@link #t} ^= {@link #tw}, word vector by word vector. */",
           "    private void xorTweaks() {",
           "        int[] t = this.t, tw = this.tw;",
           "        for (int o = 0; o < 4 * WAY; o += LANES) {",
           "            IntVector.fromArray(S, t, o).lanewise(XOR, IntVector.fromArray(S, tw, o)).intoArray(t, o);",
           "        }",
           "    }",
           "",
           ""]
    m = lanes // 4  # blocks per vector

    def seg_rot(k):
        return [((e // m + k) % 4) * m + e % m for e in range(lanes)]

    group = [4 * (e % m) + e // m for e in range(lanes)]  # words of a vector's blocks grouped by word
    ungroup = [(e % 4) * m + e // 4 for e in range(lanes)]
    consts = [("UP1", seg_rot(-1)), ("DOWN1", seg_rot(1)), ("ROT2", seg_rot(2))]
    if m > 1:
        consts += [("GROUP", group), ("UNGROUP", ungroup)]
    out += ["    // The transposition (in registers, no scalar stores: a vector load of words just stored one",
            "    // by one stalls on store forwarding). Within a set, vector i holds blocks m i .. m i + m - 1",
            f"    // (m = {m}); grouping its words by index gives four segments of m lanes, segment j word Xj;",
            "    // word vector j is then segment j of the four vectors: a 4 x 4 transpose of segments, by",
            "    // segment rotations and blends. That transpose is its own inverse.",
            "    private static final VectorSpecies<Byte> B = ByteVector." + species + ";"]
    for cname, idx in consts:
        out.append(f"    private static final VectorShuffle<Integer> {cname} = VectorShuffle.fromValues(S, "
                   + ", ".join(map(str, idx)) + ");")
    odd = [(e // m) % 2 == 1 for e in range(lanes)]
    high = [(e // m) >= 2 for e in range(lanes)]
    out.append("    private static final VectorMask<Integer> ODD = VectorMask.fromValues(S, "
               + ", ".join("true" if b else "false" for b in odd) + ");")
    out.append("    private static final VectorMask<Integer> HIGH = VectorMask.fromValues(S, "
               + ", ".join("true" if b else "false" for b in high) + ");")
    out += ["",
            "    // CTR's and XTS's lane constants: the block index of each lane in a batch (lane i of set s is",
            "    // block s LANES + i), 31 minus the lane (XTS's carries), and the byte swap within each int.",
            "    private static final int[] LANE = {" + ", ".join(map(str, range(way))) + "};",
            "    private static final int[] LANE_DOWN = {" + ", ".join(str(31 - i) for i in range(lanes)) + "};",
            "    private static final VectorShuffle<Byte> BSWAP = VectorShuffle.fromValues(B, "
            + ", ".join(str(4 * (e // 4) + 3 - e % 4) for e in range(4 * lanes)) + ");"]
    out.append("")

    def transpose(src, dst, ind):
        """dst[j] = segment j of src[0..3] (the 4 x 4 segment transpose)."""
        p0, p1, p2, p3 = src
        return [ind + f"IntVector {dst[0]}a = {p0}.blend({p1}.rearrange(UP1), ODD);",
                ind + f"IntVector {dst[0]}b = {p0}.rearrange(DOWN1).blend({p1}, ODD);",
                ind + f"IntVector {dst[0]}c = {p2}.blend({p3}.rearrange(UP1), ODD);",
                ind + f"IntVector {dst[0]}d = {p2}.rearrange(DOWN1).blend({p3}, ODD);",
                ind + f"IntVector {dst[0]} = {dst[0]}a.blend({dst[0]}c.rearrange(ROT2), HIGH);",
                ind + f"IntVector {dst[1]} = {dst[0]}b.blend({dst[0]}d.rearrange(ROT2), HIGH);",
                ind + f"IntVector {dst[2]} = {dst[0]}a.rearrange(ROT2).blend({dst[0]}c, HIGH);",
                ind + f"IntVector {dst[3]} = {dst[0]}b.rearrange(ROT2).blend({dst[0]}d, HIGH);"]

    out += ["    /** Transposes WAY blocks from {@code in} into {@link #t}: word j of a set's blocks to its vector j. */",
            "    private void load(byte[] in, int off) {",
            "        int[] t = this.t;"]
    for si in range(SETS):
        for i in range(4):
            g = ".rearrange(GROUP)" if m > 1 else ""
            out.append(f"        IntVector v{si}{i} = ByteVector.fromArray(B, in, off + {16 * m * (4 * si + i)}).reinterpretAsInts(){g};")
        out += transpose([f"v{si}{i}" for i in range(4)], [f"x{si}{j}" for j in range(4)], "        ")
        out += [f"        x{si}{j}.intoArray(t, {4 * si + j} * LANES);" for j in range(4)]
    out += ["    }", "",
            "    /** The inverse of {@link #load}: the words in {@link #t} back to WAY blocks at {@code out[off]}. */",
            "    private void store(byte[] out, int off) {",
            "        int[] t = this.t;"]
    for si in range(SETS):
        out += [f"        IntVector x{si}{j} = IntVector.fromArray(S, t, {4 * si + j} * LANES);" for j in range(4)]
        out += transpose([f"x{si}{j}" for j in range(4)], [f"v{si}{i}" for i in range(4)], "        ")
        for i in range(4):
            g = ".rearrange(UNGROUP)" if m > 1 else ""
            out.append(f"        v{si}{i}{g}.reinterpretAsBytes().intoArray(out, off + {16 * m * (4 * si + i)});")
    out += ["    }", "",
            "    /** {@link #store} of the key stream in {@link #t}, XORed into WAY blocks of {@code in} on their way to {@code out}. */",
            "    private void storeXor(byte[] in, int inOff, byte[] out, int outOff) {",
            "        int[] t = this.t;"]
    for si in range(SETS):
        out += [f"        IntVector x{si}{j} = IntVector.fromArray(S, t, {4 * si + j} * LANES);" for j in range(4)]
        out += transpose([f"x{si}{j}" for j in range(4)], [f"v{si}{i}" for i in range(4)], "        ")
        for i in range(4):
            g = ".rearrange(UNGROUP)" if m > 1 else ""
            o = 16 * m * (4 * si + i)
            out.append(f"        ByteVector.fromArray(B, in, inOff + {o}).lanewise(XOR, v{si}{i}{g}.reinterpretAsBytes()).intoArray(out, outOff + {o});")
    out += ["    }", ""]
    # Four rounds per method: C1 (tier 3) fails on a method of eight rounds of two sets ("out of
    # virtual registers") and a method C1 gave up on may never reach C2. The words pass between
    # the steps through t: 16 vector loads and stores per 4 rounds of ~400 lanewise operations.
    def step(mname, doc, body):
        states = [State(chr(ord('a') + s)) for s in range(SETS)]
        L = [f"    /** {doc} */",
             f"    private static void {mname}(int[] k, int[] t, int r) {{"]
        for si, st in enumerate(states):
            L += [f"        IntVector {st.v[j]} = IntVector.fromArray(S, t, {4 * si + j} * LANES);" for j in range(4)]
            L += [f"        IntVector {st.v[4]} = {st.v[0]};"]
        L += body(states)
        for si, st in enumerate(states):
            L += [f"        {st.w(j)}.intoArray(t, {4 * si + j} * LANES);" for j in range(4)]
        L += ["    }", ""]
        return L

    def enc_rounds(first, last_round):
        def body(states):
            L = []
            for s in range(first, first + 4):
                L += ["        " + x for x in interleave([st.key(d, lambda i, s=s, si=si: kexpr(si, f"r + {4 * s + i}")) for si, st in enumerate(states)])]
                L += ["        " + x for x in interleave([st.sbox(d, f"S{s}") for st in states])]
                if last_round and s == 7:
                    L += ["        " + x for x in interleave([st.key(d, lambda i, si=si: kexpr(si, f"{128 + i}")) for si, st in enumerate(states)])]
                else:
                    L += ["        " + x for x in interleave([st.lt(d) for st in states])]
            return L
        return body

    def dec_rounds(first, first_round):
        def body(states):
            L = []
            if first_round:
                L += ["        " + x for x in interleave([st.key(d, lambda i, si=si: kexpr(si, f"{128 + i}")) for si, st in enumerate(states)])]
            for s in range(first + 3, first - 1, -1):
                if not (first_round and s == 7):
                    L += ["        " + x for x in interleave([st.ilt(d) for st in states])]
                L += ["        " + x for x in interleave([st.sbox(d, f"SI{s}") for st in states])]
                L += ["        " + x for x in interleave([st.key(d, lambda i, s=s, si=si: kexpr(si, f"r + {4 * s + i}")) for si, st in enumerate(states)])]
            return L
        return body

    out += ["    /** Encrypts the batch in {@code t} in place with subkeys {@code k} (132 words): 32 rounds (section 3). */",
            "    private static void encryptBatch(int[] k, int[] t) {",
            "        for (int r = 0; r < 96; r += 32) {",
            "            enc0123(k, t, r);",
            "            enc4567(k, t, r);",
            "        }",
            "        enc0123(k, t, 96);",
            "        enc4567Last(k, t, 96);",
            "    }", "",
            "    /** Decrypts the batch in {@code t} in place: the rounds of {@link #encryptBatch} inverted, last first. */",
            "    private static void decryptBatch(int[] k, int[] t) {",
            "        dec7654First(k, t, 96);",
            "        dec3210(k, t, 96);",
            "        for (int r = 64; r >= 0; r -= 32) {",
            "            dec7654(k, t, r);",
            "            dec3210(k, t, r);",
            "        }",
            "    }", ""]
    out += step("enc0123", "Rounds r .. r+3 (S0..S3, each K, S, LT).", enc_rounds(0, False))
    out += step("enc4567", "Rounds r+4 .. r+7 (S4..S7, each K, S, LT).", enc_rounds(4, False))
    out += step("enc4567Last", "Rounds 28 .. 31: round 31 ends with K32 instead of LT.", enc_rounds(4, True))
    out += step("dec7654First", "Inverse of rounds 31 .. 28: K32, SI7, K31, then (LT^-1, SI, K) three times.", dec_rounds(4, True))
    out += step("dec7654", "Inverse of rounds r+7 .. r+4: each LT^-1, SI, K.", dec_rounds(4, False))
    out += step("dec3210", "Inverse of rounds r+3 .. r: each LT^-1, SI, K.", dec_rounds(0, False))
    out += ["    @Override",
            "    public void destroy() {",
            "        scalar.destroy();",
            "        Arrays.fill(t, 0);",
            "        Arrays.fill(tw, 0);"] + (["        Arrays.fill(kv, 0);"] if kv else []) + [
            "    }",
            "}"]
    (OUT_VECTOR / f"{cls}.java").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Generates Serpent's round code.")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT,
                    help="folder standing for src/main (default: this module's src/main)")
    args = ap.parse_args()
    OUT_SCALAR = args.out / OUT_SCALAR.relative_to(ROOT)
    OUT_VECTOR = args.out / OUT_VECTOR.relative_to(ROOT)
    OUT_SCALAR.mkdir(parents=True, exist_ok=True)
    OUT_VECTOR.mkdir(parents=True, exist_ok=True)
    scalar()
    for bits in (128, 256, 512):
        vector(bits)
    for name in sorted(SB):
        print(f"{name}: outputs in registers {SB[name][1]}")
