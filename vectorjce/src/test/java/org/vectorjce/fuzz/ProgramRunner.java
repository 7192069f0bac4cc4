package org.vectorjce.fuzz;

import org.vectorjce.TestProviders;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEParameterSpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.fuzz.CipherProgram.Buf;
import org.vectorjce.fuzz.CipherProgram.IvKind;
import org.vectorjce.fuzz.CipherProgram.Kind;
import org.vectorjce.fuzz.CipherProgram.Op;

/**
 * Runs a {@link CipherProgram} on one {@code Cipher} and records what every call did: the value it
 * returned, the bytes it produced, the positions of the buffers and a digest of every output
 * array or buffer (guard bytes included), or the exception it threw.
 *
 * <p>On VectorJCE, every call is also checked against the JCA contract on its own: only the
 * documented exception types; no key bytes in any exception text; nothing written outside the
 * output range a call reports (or, when it throws, outside what {@code getOutputSize} allowed);
 * {@code getOutputSize} never smaller than the output; {@code ByteBuffer} positions advanced
 * exactly on success and untouched on failure; and, when asked, every message (the calls from
 * {@code init} or the last {@code doFinal} to the next {@code doFinal}) gives the same bytes, or
 * the same exception, as one {@code doFinal} over the input the calls accepted.
 */
final class ProgramRunner {

    private static final HexFormat HEX = HexFormat.of();
    private static final byte GUARD_SEED = (byte) 0xA5;

    /** The exceptions the JCA documents for these calls; anything else from VectorJCE is a bug. */
    private static final Set<Class<? extends Throwable>> ALLOWED = Set.of(
            IllegalArgumentException.class, IllegalStateException.class, ShortBufferException.class,
            IllegalBlockSizeException.class, BadPaddingException.class, InvalidKeyException.class,
            InvalidAlgorithmParameterException.class, ReadOnlyBufferException.class);

    private ProgramRunner() {
    }

    /** What one call did. Event 0 is the first {@code init}; event i+1 is op i. */
    record Event(String call, String outcome, Throwable ex, byte[] produced, byte[] consumed, boolean messageEnd,
                 byte[] iv) {
        Class<?> exClass() {
            return ex == null ? null : ex.getClass();
        }

        boolean ok() {
            return ex == null;
        }
    }

    /** A SecretKey of any encoding and algorithm name (SecretKeySpec refuses an empty key). */
    static final class RawKey implements SecretKey {
        private static final long serialVersionUID = 1L;
        private final String algorithm;
        private final byte[] bytes;

        RawKey(String algorithm, byte[] bytes) {
            this.algorithm = algorithm;
            this.bytes = bytes.clone();
        }

        @Override
        public String getAlgorithm() {
            return algorithm;
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }

        @Override
        public String toString() {
            return "RawKey[" + algorithm + ", " + bytes.length + " bytes]";
        }
    }

    /** A SecureRandom whose bytes are a function of {@code seed}, so every run generates the same IVs. */
    static SecureRandom deterministicRandom(long seed) {
        Random r = new Random(seed);
        SecureRandomSpi spi = new SecureRandomSpi() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void engineSetSeed(byte[] s) {
            }

            @Override
            protected void engineNextBytes(byte[] b) {
                r.nextBytes(b);
            }

            @Override
            protected byte[] engineGenerateSeed(int n) {
                byte[] b = new byte[n];
                r.nextBytes(b);
                return b;
            }
        };
        return new SecureRandom(spi, null) {
            private static final long serialVersionUID = 1L;
        };
    }

    /** Runs {@code body} with the ciphers of a provider whose {@code alg} keys get {@code kernel}. */
    static <T> T withKernel(String alg, String kernel, java.util.function.Supplier<T> body) {
        return TestProviders.withKernel(alg, kernel, body);
    }

    // ------------------------------------------------------------------ init

    /**
     * Initialises {@code c} as the program says. {@code ivOverride}, when not null, replaces the
     * program's IV choice by {@code IvParameterSpec(ivOverride)} (used to give Bouncy Castle the IV
     * VectorJCE generated).
     */
    static void init(Cipher c, CipherProgram p, int initIndex, byte[] ivOverride) throws Exception {
        Key key = new RawKey(p.keyAlg, p.key);
        SecureRandom rnd = deterministicRandom(p.seed * 31 + initIndex);
        IvKind kind = ivOverride != null ? IvKind.SPEC : p.ivKind;
        byte[] iv = ivOverride != null ? ivOverride : p.iv;
        switch (kind) {
            case NONE -> c.init(p.opmode, key, rnd);
            case SPEC -> c.init(p.opmode, key, new IvParameterSpec(iv), rnd);
            case PARAMS -> {
                AlgorithmParameters ap = AlgorithmParameters.getInstance(p.spec.alg(), TestProviders.current());
                ap.init(new IvParameterSpec(iv));
                c.init(p.opmode, key, ap, rnd);
            }
            case NULL_SPEC -> c.init(p.opmode, key, (AlgorithmParameterSpec) null, rnd);
            case WRONG_TYPE -> c.init(p.opmode, key, new PBEParameterSpec(new byte[8], 1000), rnd);
            default -> throw new AssertionError(kind);
        }
    }

    // ------------------------------------------------------------------ running

    /** Input bytes of {@code op}: {@code n} bytes of the message from {@code op.dataStart}, cyclically. */
    static byte[] data(byte[] message, Op op, int n) {
        byte[] d = new byte[n];
        if (message.length > 0) {
            for (int i = 0; i < n; i++) {
                d[i] = message[(op.dataStart() + i) % message.length];
            }
        }
        return d;
    }

    /** A length or offset small enough to size an array with, else 0. */
    static int sane(int n) {
        return n >= 0 && n <= (1 << 16) ? n : 0;
    }

    static byte[] guarded(int n) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
            a[i] = (byte) (GUARD_SEED ^ (i * 29));
        }
        return a;
    }

    /** Per-run state and the checks that hold for VectorJCE only. */
    static final class Run {
        final CipherProgram p;
        final byte[] message;
        final boolean vectorJce;
        final boolean oneShotOracle;
        final List<Event> events = new ArrayList<>();
        /** The current message: input the calls accepted and bytes they produced. */
        final ByteArrayOutputStream msgIn = new ByteArrayOutputStream();
        final ByteArrayOutputStream msgOut = new ByteArrayOutputStream();
        int inits;

        Run(CipherProgram p, byte[] message, boolean vectorJce, boolean oneShotOracle) {
            this.p = p;
            this.message = message;
            this.vectorJce = vectorJce;
            this.oneShotOracle = oneShotOracle;
        }

        AssertionError fail(String what, Throwable cause) {
            return new AssertionError(what + "\nprogram: " + p + "\nevents so far:\n" + describe(events), cause);
        }
    }

    static String describe(List<Event> events) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            String o = e.outcome();
            sb.append("  [").append(i).append("] ").append(e.call()).append(" -> ")
                    .append(o.length() > 300 ? o.substring(0, 300) + "..." : o).append('\n');
        }
        return sb.toString();
    }

    /** Runs the program on VectorJCE with {@code kernel} forced. */
    static List<Event> runVectorJce(CipherProgram p, byte[] message, String kernel, boolean oneShotOracle) {
        return withKernel(p.spec.alg(), kernel, () -> {
            Run run = new Run(p, message, true, oneShotOracle);
            Cipher c;
            try {
                c = Cipher.getInstance(p.spec.transformation(), TestProviders.current());
            } catch (Exception e) {
                throw new AssertionError("getInstance " + p.spec, e);
            }
            run.events.add(doInit(run, c, null));
            for (Op op : p.ops) {
                run.events.add(op.kind() == Kind.REINIT ? doInit(run, c, null) : exec(run, c, op));
            }
            return run.events;
        });
    }

    static Event doInit(Run run, Cipher c, byte[] ivOverride) {
        String call = run.inits == 0 ? "init" : "REINIT";
        int index = run.inits++;
        run.msgIn.reset();
        run.msgOut.reset();
        CipherProgram p = run.p;
        try {
            init(c, p, index, ivOverride);
            byte[] iv = c.getIV();
            if (run.vectorJce && (p.keyFault() || p.ivFault())) {
                throw run.fail(call + " accepted a " + (p.keyFault() ? "key" : "parameter") + " it must refuse", null);
            }
            if (run.vectorJce && !p.spec.ecb() && (iv == null || iv.length != 16)) {
                throw run.fail(call + ": getIV() after init is " + (iv == null ? "null" : iv.length + " bytes"), null);
            }
            return new Event(call, "ok iv=" + (iv == null ? "null" : HEX.formatHex(iv)), null, null, null, false, iv);
        } catch (Throwable t) {
            checkException(run, call, t);
            if (run.vectorJce) {
                // The refusal must be one the program's faults justify: InvalidKeyException for a bad
                // key (or a missing IV through init(key), as JCA's init(key) reports it),
                // InvalidAlgorithmParameterException for bad parameters.
                boolean justified = t instanceof InvalidKeyException
                        ? p.keyFault() || (p.ivFault() && p.ivKind == IvKind.NONE)
                        : t instanceof InvalidAlgorithmParameterException && p.ivFault();
                if (!justified) {
                    throw run.fail(call + " refused with " + t + " (key fault: " + p.keyFault() + ", parameter fault: "
                            + p.ivFault() + ")", t);
                }
            }
            return new Event(call, exText(t), t, null, null, false, null);
        }
    }

    private static String exText(Throwable t) {
        return "EX " + t.getClass().getName() + ": " + t.getMessage();
    }

    private static void checkException(Run run, String call, Throwable t) {
        if (!run.vectorJce) {
            return;
        }
        if (t instanceof Error) {
            throw run.fail(call + " threw " + t, t);
        }
        if (!ALLOWED.contains(t.getClass())) {
            throw run.fail(call + ": exception type the JCA does not document here: " + t, t);
        }
        assertNoKeyBytes(run, call, t);
    }

    /** Fails if any 6-byte window of the key (not all one value) shows up, in hex, in the exception text. */
    static void assertNoKeyBytes(Run run, String call, Throwable t) {
        byte[] key = run.p.key;
        StringBuilder text = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause()) {
            text.append(x).append('\n');
        }
        String lower = text.toString().toLowerCase(Locale.ROOT);
        for (int i = 0; i + 6 <= key.length; i++) {
            byte[] w = Arrays.copyOfRange(key, i, i + 6);
            boolean uniform = true;
            for (byte b : w) {
                uniform &= b == w[0];
            }
            if (!uniform && lower.contains(HEX.formatHex(w))) {
                throw run.fail(call + ": exception text shows key bytes " + HEX.formatHex(w) + ": " + text, t);
            }
        }
    }

    private static int resolve(int off, int arrayLength) {
        return off == CipherProgram.PAST_END ? arrayLength + 1 : off;
    }

    /** getOutputSize(len) when it can be asked, else -1. */
    private static int outputSize(Cipher c, int len) {
        if (len < 0) {
            return -1;
        }
        try {
            return c.getOutputSize(len);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    static Event exec(Run run, Cipher c, Op op) {
        Kind k = op.kind();
        return switch (k) {
            case UPDATE_WHOLE, FINAL_WHOLE, UPDATE_RET, FINAL_RET, UPDATE_OUT, FINAL_OUT, FINAL_EMPTY, FINAL_OUT_ONLY ->
                    execArrays(run, c, op);
            case UPDATE_BB, FINAL_BB -> execBuffers(run, c, op);
            case UPDATE_SAME, FINAL_SAME -> execSame(run, c, op);
            case OUTPUT_SIZE -> {
                try {
                    int n = c.getOutputSize(op.inLen());
                    yield new Event(op.toString(), "ok " + n, null, null, null, false, null);
                } catch (Throwable t) {
                    checkException(run, op.toString(), t);
                    yield new Event(op.toString(), exText(t), t, null, null, false, null);
                }
            }
            case GET_IV -> {
                byte[] iv = c.getIV();
                AlgorithmParameters ap = c.getParameters();
                String enc;
                try {
                    enc = ap == null ? "null" : ap.getAlgorithm() + ":" + HEX.formatHex(ap.getEncoded());
                } catch (Exception e) {
                    enc = exText(e);
                }
                if (run.vectorJce && ap != null && iv != null) {
                    try {
                        byte[] back = ap.getParameterSpec(IvParameterSpec.class).getIV();
                        if (!Arrays.equals(back, iv)) {
                            throw run.fail("getParameters() does not hold getIV()", null);
                        }
                    } catch (java.security.spec.InvalidParameterSpecException e) {
                        throw run.fail("getParameters() has no IvParameterSpec", e);
                    }
                }
                yield new Event(op.toString(), "iv=" + (iv == null ? "null" : HEX.formatHex(iv)) + " params=" + enc,
                        null, null, null, false, null);
            }
            case REINIT -> throw new AssertionError("REINIT is run by the caller");
        };
    }

    private static Event execArrays(Run run, Cipher c, Op op) {
        Kind k = op.kind();
        boolean hasIn = k != Kind.FINAL_EMPTY && k != Kind.FINAL_OUT_ONLY;
        boolean whole = k == Kind.UPDATE_WHOLE || k == Kind.FINAL_WHOLE;
        int len = hasIn ? op.inLen() : 0;
        byte[] in = null;
        int inOff = 0;
        byte[] consumed = new byte[0];
        if (hasIn) {
            int n = sane(len);
            consumed = data(run.message, op, n);
            if (whole) {
                in = consumed.clone();
            } else {
                int placeAt = op.inOff() >= 0 && op.inOff() <= 64 ? op.inOff() : 0;
                in = guarded(placeAt + n + op.inSlack());
                System.arraycopy(consumed, 0, in, placeAt, n);
                inOff = resolve(op.inOff(), in.length);
            }
        }
        boolean hasOut = k == Kind.UPDATE_OUT || k == Kind.FINAL_OUT || k == Kind.FINAL_OUT_ONLY;
        byte[] out = null;
        int outOff = 0;
        if (hasOut && !op.outNull()) {
            int pre = op.outOff() >= 0 && op.outOff() <= 64 ? op.outOff() : 0;
            out = guarded(pre + op.outRoom());
            outOff = resolve(op.outOff(), out.length);
        }
        byte[] outBefore = out == null ? null : out.clone();
        byte[] inBefore = in == null ? null : in.clone();
        int osz = outputSize(c, whole ? sane(len) : len);
        String call = op.toString();
        byte[] produced;
        int ret = -1;
        boolean returnedNull = false;
        byte[] r = null;
        try {
            switch (k) {
                case UPDATE_WHOLE -> r = c.update(in);
                case FINAL_WHOLE -> r = c.doFinal(in);
                case UPDATE_RET -> r = c.update(in, inOff, len);
                case FINAL_RET -> r = c.doFinal(in, inOff, len);
                case FINAL_EMPTY -> r = c.doFinal();
                case UPDATE_OUT -> ret = c.update(in, inOff, len, out, outOff);
                case FINAL_OUT -> ret = c.doFinal(in, inOff, len, out, outOff);
                case FINAL_OUT_ONLY -> ret = c.doFinal(out, outOff);
                default -> throw new AssertionError(k);
            }
        } catch (Throwable t) {
            checkException(run, call, t);
            if (run.vectorJce) {
                checkUnchanged(run, call + " (input array)", inBefore, in, 0, 0);
                if (!(t instanceof BadPaddingException)) {
                    // A refused call writes nothing. (A padding failure zeroes what it had written.)
                    checkUnchanged(run, call + " (output array, call refused)", outBefore, out, 0, 0);
                } else {
                    checkUnchanged(run, call + " (output array)", outBefore, out, outOff,
                            osz < 0 ? Integer.MAX_VALUE : osz);
                }
            }
            return ended(run, op, t, exText(t) + digest(" out", out), consumed);
        }
        if (hasOut) {
            // (update with no input returns 0 in Cipher itself, before the provider sees the output
            // array, so a null or bad output array is accepted there.)
            produced = ret == 0 ? new byte[0] : Arrays.copyOfRange(out, outOff, outOff + ret);
        } else {
            returnedNull = r == null;
            produced = r == null ? new byte[0] : r;
        }
        if (run.vectorJce) {
            checkUnchanged(run, call + " (input array)", inBefore, in, 0, 0);
            if (hasOut && out != null) {
                checkUnchanged(run, call + " (output array)", outBefore, out, ret == 0 ? 0 : outOff, ret);
            }
            if (osz >= 0 && produced.length > osz) {
                throw run.fail(call + ": getOutputSize(" + len + ") = " + osz + " but " + produced.length
                        + " bytes were output", null);
            }
        }
        String outcome = (hasOut ? "ret " + ret : returnedNull ? "null" : "array " + produced.length)
                + " produced " + HEX.formatHex(produced) + digest(" out", out);
        return accepted(run, op, consumed, produced, outcome);
    }

    private static Event execSame(Run run, Cipher c, Op op) {
        int n = sane(op.inLen());
        int inOff = Math.max(op.inOff(), -op.shift());
        int outOff = inOff + op.shift();
        byte[] a = guarded(Math.max(inOff + n, outOff + n + 32) + 8);
        byte[] consumed = data(run.message, op, n);
        System.arraycopy(consumed, 0, a, inOff, n);
        byte[] before = a.clone();
        int osz = outputSize(c, n);
        String call = op.toString();
        int ret;
        try {
            ret = op.kind() == Kind.UPDATE_SAME ? c.update(a, inOff, n, a, outOff) : c.doFinal(a, inOff, n, a, outOff);
        } catch (Throwable t) {
            checkException(run, call, t);
            if (run.vectorJce && !(t instanceof BadPaddingException)) {
                checkUnchanged(run, call + " (array, call refused)", before, a, 0, 0);
            }
            return ended(run, op, t, exText(t) + digest(" array", a), consumed);
        }
        byte[] produced = Arrays.copyOfRange(a, outOff, outOff + ret);
        if (run.vectorJce) {
            checkUnchanged(run, call, before, a, outOff, ret);
            if (osz >= 0 && ret > osz) {
                throw run.fail(call + ": getOutputSize = " + osz + " but " + ret + " bytes were output", null);
            }
        }
        return accepted(run, op, consumed, produced, "ret " + ret + " produced " + HEX.formatHex(produced)
                + digest(" array", a));
    }

    private static ByteBuffer buffer(Buf kind, int capacity) {
        return switch (kind) {
            case HEAP, READ_ONLY_HEAP -> ByteBuffer.allocate(capacity);
            case DIRECT, READ_ONLY_DIRECT -> ByteBuffer.allocateDirect(capacity);
            case SLICED_HEAP -> ByteBuffer.wrap(new byte[capacity + 7], 7, capacity).slice();
        };
    }

    private static boolean readOnly(Buf kind) {
        return kind == Buf.READ_ONLY_HEAP || kind == Buf.READ_ONLY_DIRECT;
    }

    private static byte[] contents(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        d.clear();
        byte[] a = new byte[d.remaining()];
        d.get(a);
        return a;
    }

    private static Event execBuffers(Run run, Cipher c, Op op) {
        int n = op.inLen();
        byte[] consumed = data(run.message, op, n);
        ByteBuffer in = buffer(op.inBuf(), op.inPos() + n + 8);
        in.put(guarded(in.capacity())).position(op.inPos());
        in.put(consumed).position(op.inPos()).limit(op.inPos() + n);
        if (readOnly(op.inBuf())) {
            in = in.asReadOnlyBuffer();
        }
        ByteBuffer out = buffer(op.outBuf(), op.outPos() + op.outRoom() + 8);
        out.put(guarded(out.capacity())).clear().position(op.outPos()).limit(op.outPos() + op.outRoom());
        if (readOnly(op.outBuf())) {
            out = out.asReadOnlyBuffer();
        }
        byte[] outBefore = contents(out);
        int osz = outputSize(c, n);
        String call = op.toString();
        int ret;
        try {
            ret = op.kind() == Kind.UPDATE_BB ? c.update(in, out) : c.doFinal(in, out);
        } catch (Throwable t) {
            checkException(run, call, t);
            // A refused call (short output, bad state, read-only output) leaves both buffers as they
            // were, so it can be retried. IllegalBlockSize/BadPadding end the message: the JDK's
            // CipherSpi may have read a non-array input buffer by then.
            boolean ends = t instanceof IllegalBlockSizeException || t instanceof BadPaddingException;
            if (run.vectorJce) {
                if ((!ends && (in.position() != op.inPos() || in.limit() != op.inPos() + n))
                        || out.position() != op.outPos() || out.limit() != op.outPos() + op.outRoom()) {
                    throw run.fail(call + " threw " + t + " but moved a buffer: in " + in + ", out " + out, t);
                }
                if (!(t instanceof BadPaddingException)) {
                    checkUnchanged(run, call + " (output buffer, call refused)", outBefore, contents(out), 0, 0);
                }
            }
            return ended(run, op, t, exText(t) + " in " + in.position() + "/" + in.limit() + " out "
                    + out.position() + "/" + out.limit(), consumed);
        }
        byte[] after = contents(out);
        byte[] produced = Arrays.copyOfRange(after, op.outPos(), op.outPos() + ret);
        if (run.vectorJce) {
            if (in.position() != in.limit() || in.limit() != op.inPos() + n) {
                throw run.fail(call + ": input buffer not fully consumed: " + in, null);
            }
            if (out.position() != op.outPos() + ret || out.limit() != op.outPos() + op.outRoom()) {
                throw run.fail(call + ": output buffer position " + out.position() + " after returning " + ret
                        + " (started at " + op.outPos() + ")", null);
            }
            checkUnchanged(run, call + " (output buffer)", outBefore, after, op.outPos(), ret);
            if (osz >= 0 && ret > osz) {
                throw run.fail(call + ": getOutputSize = " + osz + " but " + ret + " bytes were output", null);
            }
        }
        return accepted(run, op, consumed, produced, "ret " + ret + " produced " + HEX.formatHex(produced)
                + " in " + in.position() + "/" + in.limit() + " out " + out.position() + "/" + out.limit()
                + digest(" out", after));
    }

    /** Fails unless {@code after} equals {@code before} outside {@code [from, from + len)}. */
    private static void checkUnchanged(Run run, String call, byte[] before, byte[] after, int from, int len) {
        if (before == null) {
            return;
        }
        long end = (long) from + len;
        for (int i = 0; i < before.length; i++) {
            if ((i < from || i >= end) && before[i] != after[i]) {
                throw run.fail(call + ": byte " + i + " changed outside the output range [" + from + ", " + end + ")",
                        null);
            }
        }
    }

    private static String digest(String label, byte[] a) {
        if (a == null) {
            return "";
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(a);
            return label + "#" + HEX.formatHex(d, 0, 8);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A successful update/doFinal: the bytes go to the current message; doFinal ends it. */
    private static Event accepted(Run run, Op op, byte[] consumed, byte[] produced, String outcome) {
        run.msgIn.writeBytes(consumed);
        run.msgOut.writeBytes(produced);
        boolean end = op.kind().isFinal();
        if (end) {
            if (run.oneShotOracle) {
                checkOneShot(run, op, run.msgOut.toByteArray(), null);
            }
            run.msgIn.reset();
            run.msgOut.reset();
        }
        return new Event(op.toString(), "ok " + outcome, null, produced, consumed, end, null);
    }

    /** A call that threw: IllegalBlockSize/BadPadding from doFinal end the message (JCA resets the cipher). */
    private static Event ended(Run run, Op op, Throwable t, String outcome, byte[] consumed) {
        boolean end = op.kind().isFinal()
                && (t instanceof IllegalBlockSizeException || t instanceof BadPaddingException);
        if (end) {
            if (consumed != null) {
                run.msgIn.writeBytes(consumed); // the failing doFinal's own input is part of the message
            }
            if (run.oneShotOracle) {
                checkOneShot(run, op, null, t);
            }
            run.msgIn.reset();
            run.msgOut.reset();
        }
        return new Event(op.toString(), outcome, t, null, consumed, end, null);
    }

    /**
     * The message just ended with {@code streamed} bytes or {@code thrown}; a fresh cipher (same key,
     * same IV as the streaming one reported, same kernel) must give the same for one doFinal over
     * the accepted input.
     */
    private static void checkOneShot(Run run, Op op, byte[] streamed, Throwable thrown) {
        CipherProgram p = run.p;
        byte[] input = run.msgIn.toByteArray();
        byte[] iv = null;
        for (int i = run.events.size() - 1; i >= 0; i--) {
            Event e = run.events.get(i);
            if (e.call().equals("init") || e.call().equals("REINIT")) {
                iv = e.iv();
                break;
            }
        }
        byte[] oneShot;
        Throwable oneShotEx = null;
        try {
            Cipher c = Cipher.getInstance(p.spec.transformation(), TestProviders.current());
            RawKey key = new RawKey(p.keyAlg, p.key);
            if (iv == null) {
                c.init(p.opmode, key);
            } else {
                c.init(p.opmode, key, new IvParameterSpec(iv));
            }
            oneShot = c.doFinal(input);
        } catch (Exception e) {
            oneShot = null;
            oneShotEx = e;
        }
        Stats.count(thrown == null ? "messages vs one-shot" : "failed messages vs one-shot");
        String what = op + " ended a message of " + input.length + " accepted input bytes";
        if (thrown != null) {
            if (oneShotEx == null || oneShotEx.getClass() != thrown.getClass()) {
                throw run.fail(what + " with " + thrown + ", but one doFinal over that input gives "
                        + (oneShotEx == null ? HEX.formatHex(oneShot) : oneShotEx.toString()), thrown);
            }
        } else if (oneShotEx != null) {
            throw run.fail(what + " with output " + HEX.formatHex(streamed) + ", but one doFinal over that input throws "
                    + oneShotEx, oneShotEx);
        } else if (!Arrays.equals(streamed, oneShot)) {
            throw run.fail(what + ": streamed output\n  " + HEX.formatHex(streamed) + "\ndiffers from one doFinal\n  "
                    + HEX.formatHex(oneShot), null);
        }
    }
}
