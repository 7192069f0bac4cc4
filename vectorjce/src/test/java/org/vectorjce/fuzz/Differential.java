package org.vectorjce.fuzz;

import java.io.ByteArrayOutputStream;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.vectorjce.fuzz.CipherProgram.IvKind;
import org.vectorjce.fuzz.CipherProgram.Kind;
import org.vectorjce.fuzz.CipherProgram.Op;
import org.vectorjce.fuzz.ProgramRunner.Event;
import org.vectorjce.fuzz.ProgramRunner.Run;

/**
 * The differential check of one program, as Linux testmgr fuzzes an optimised driver against the
 * generic one:
 * <ol>
 *   <li>VectorJCE on the scalar kernel ({@code aes-table}/{@code twofish-table}), with every JCA
 *       contract check of {@link ProgramRunner} and the one-shot oracle (each message's streamed
 *       bytes equal one {@code doFinal} over the accepted input);</li>
 *   <li>VectorJCE on the program's kernel: every call must return, write and throw exactly what
 *       the scalar run did (same values, same bytes, same buffer positions, same exception class
 *       and message);</li>
 *   <li>Bouncy Castle's JCA provider, for ECB, CBC and CTR (it has no XTS or LRW): the same calls,
 *       each message giving the same bytes or the same exception type — except where the two
 *       providers make different, legitimate JCA choices, listed in {@link #initMapping} and
 *       {@link #callMapping}.</li>
 * </ol>
 */
final class Differential {

    static final Provider BC = new BouncyCastleProvider();
    private static final HexFormat HEX = HexFormat.of();

    private Differential() {
    }

    static void check(CipherProgram p) {
        byte[] message = message(p);
        String scalarKernel = p.spec.scalarKernel();
        Stats.count("programs");
        List<Event> scalar = ProgramRunner.runVectorJce(p, message, scalarKernel, true);
        if (scalar.get(0).ok()) {
            Stats.count("init ok");
        }
        if (!p.kernel.equals(scalarKernel)) {
            List<Event> chosen = ProgramRunner.runVectorJce(p, message, p.kernel, false);
            compareExact(p, chosen, scalar);
            Stats.count("kernel compared");
        }
        if (p.spec.inBouncyCastle()) {
            replayOnBouncyCastle(p, message, scalar);
        }
    }

    /** The bytes the program feeds: random, or for decryption mostly a real ciphertext of random bytes. */
    static byte[] message(CipherProgram p) {
        byte[] plain = p.plainMessage();
        if (!p.validCiphertext) {
            return plain;
        }
        try {
            Cipher c = Cipher.getInstance(p.spec.transformation(), org.vectorjce.TestProviders.current());
            ProgramRunner.RawKey key = new ProgramRunner.RawKey(p.keyAlg, p.key);
            if (p.spec.ecb()) {
                c.init(Cipher.ENCRYPT_MODE, key);
            } else {
                c.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(p.iv));
            }
            return c.doFinal(plain);
        } catch (Exception | AssertionError e) {
            return plain; // an invalid key or IV: the program fails at init anyway
        }
    }

    static void compareExact(CipherProgram p, List<Event> chosen, List<Event> scalar) {
        for (int i = 0; i < Math.max(chosen.size(), scalar.size()); i++) {
            String a = i < chosen.size() ? chosen.get(i).outcome() : "<missing>";
            String b = i < scalar.size() ? scalar.get(i).outcome() : "<missing>";
            if (!a.equals(b)) {
                throw new AssertionError("kernel " + p.kernel + " differs from " + p.spec.scalarKernel() + " at event "
                        + i + " (" + scalar.get(Math.min(i, scalar.size() - 1)).call() + ")\n  " + p.kernel + ": " + a
                        + "\n  " + p.spec.scalarKernel() + ": " + b + "\nprogram: " + p
                        + "\n" + p.kernel + " events:\n" + ProgramRunner.describe(chosen)
                        + p.spec.scalarKernel() + " events:\n" + ProgramRunner.describe(scalar));
            }
        }
    }

    // ------------------------------------------------------------------ Bouncy Castle

    private static boolean keyAlgorithmMatches(CipherProgram p) {
        return p.keyAlg.equalsIgnoreCase(p.spec.alg()) || (p.spec.alg().equals("AES") && p.keyAlg.equalsIgnoreCase("Rijndael"));
    }

    /**
     * Where VectorJCE and Bouncy Castle answer an {@code init} differently and both are legitimate
     * JCA behaviour. Returns null if the answers are the same, a reason if they differ legitimately
     * (prefixed "DROP" when Bouncy Castle then holds a state VectorJCE does not, so the rest of the
     * program cannot be compared), and throws otherwise.
     */
    static String initMapping(CipherProgram p, Event vj, Event bc, Run run) {
        if (vj.ok() && bc.ok()) {
            return null;
        }
        if (vj.exClass() == bc.exClass()) {
            return null;
        }
        Throwable v = vj.ex();
        Throwable b = bc.ex();
        // (1) Both refuse a program with more than one fault (or with a bad key length passed with
        //     parameters): the JCA sets no order between the key and the parameter checks, and
        //     Bouncy Castle reports its engine's key-length refusal as InvalidAlgorithmParameterException
        //     where VectorJCE (as SunJCE) reports InvalidKeyException. Both ciphers stay uninitialised.
        //     (That VectorJCE's own exception is the right one is checked on the VectorJCE run.)
        if (isInitRefusal(v) && isInitRefusal(b)) {
            return "both refuse (" + v.getClass().getSimpleName() + " / " + b.getClass().getSimpleName() + ")";
        }
        // (2) A key whose getAlgorithm() names another cipher (DES, HmacSHA256, the other one of
        //     AES/Twofish): VectorJCE refuses it, as SunJCE does; Bouncy Castle ignores the name and
        //     uses the bytes.
        if (v instanceof InvalidKeyException && b == null && !keyAlgorithmMatches(p)) {
            return "DROP key algorithm " + p.keyAlg + " accepted by BC";
        }
        // (3) CTR with an IV of 8..15 bytes: VectorJCE wants the whole 16-byte counter block (as
        //     SunJCE); Bouncy Castle's SIC mode accepts a shorter IV and pads it with zero bytes.
        if (v instanceof InvalidAlgorithmParameterException && b == null && p.spec.mode().equals("CTR")
                && (p.ivKind == IvKind.SPEC) && p.iv.length >= 8 && p.iv.length < 16) {
            return "DROP CTR IV of " + p.iv.length + " bytes accepted by BC";
        }
        // (6) A parameter spec of a type no mode takes (PBEParameterSpec with a raw key): VectorJCE
        //     refuses it with InvalidAlgorithmParameterException, as the JCA describes for
        //     inappropriate parameters; Bouncy Castle ignores it (and generates an IV for CBC/CTR
        //     encryption, or reports the missing IV for decryption: then both refuse alike).
        if (v instanceof InvalidAlgorithmParameterException && b == null && p.ivKind == IvKind.WRONG_TYPE) {
            return "DROP parameter type ignored by BC";
        }
        // (7) A Serpent key of a length other than the mode's (16, 24, 32; XTS and LRW twice or plus
        //     16): VectorJCE refuses it, as issue 28 and docs ask; Bouncy Castle's Serpent cipher
        //     takes other lengths too (a 48-byte CBC key, for one).
        if (v instanceof InvalidKeyException && b == null && p.spec.alg().equals("Serpent")
                && org.vectorjce.internal.mode.ModeRules.of(p.spec.mode()).keyLengthProblem("Serpent", p.key.length) != null) {
            return "DROP Serpent key of " + p.key.length + " bytes accepted by BC";
        }
        throw run.fail("init: VectorJCE and Bouncy Castle disagree beyond the known JCA differences\n  VectorJCE: "
                + vj.outcome() + "\n  BC:        " + bc.outcome(), v != null ? v : b);
    }

    /**
     * Where one call is answered differently and both answers are legitimate; the rest of the message
     * is then not compared (the two ciphers may now hold different input), and Bouncy Castle is re-keyed
     * when VectorJCE's message ends. Returns the reason, or null if the difference is not a known one.
     */
    static String callMapping(Op op, Event vj, Event bc) {
        Throwable v = vj.ex();
        Throwable b = bc.ex();
        boolean outArray = op.kind() == Kind.UPDATE_OUT || op.kind() == Kind.FINAL_OUT || op.kind() == Kind.FINAL_OUT_ONLY;
        // (4) An output array that is null, or an output offset past its end: VectorJCE refuses the
        //     arguments with IllegalArgumentException (as for every other bad offset, and as SunJCE
        //     does for a null output); Bouncy Castle reports ShortBufferException, a
        //     NullPointerException, or — when the call outputs nothing — accepts it.
        //     (With an offset of Integer.MAX_VALUE Bouncy Castle's offset arithmetic overflows and it
        //     throws whatever its engines then meet: an IllegalStateException wrapping its
        //     OutputLengthException, an IllegalBlockSizeException "output buffer too short", or an
        //     ArrayIndexOutOfBoundsException.)
        if (outArray && v instanceof IllegalArgumentException
                && (op.outNull() || op.outOff() == CipherProgram.PAST_END || op.outOff() == Integer.MAX_VALUE)
                && (b == null || b instanceof ShortBufferException || b instanceof NullPointerException
                    || op.outOff() == Integer.MAX_VALUE)) {
            return "bad output array: VectorJCE IllegalArgumentException, BC " + (b == null ? "accepts" : b.getClass().getSimpleName());
        }
        // (5) Output space: VectorJCE outputs every whole block an update can (as SunJCE), while
        //     Bouncy Castle's padded ciphers hold a full last block back even when encrypting, and its
        //     getOutputSize estimates differ (the ByteBuffer calls check space against getOutputSize).
        //     So the same output space can be enough for one and short for the other;
        //     VectorJCE's padded decryption also accepts an output just large enough for the unpadded
        //     plaintext, where Bouncy Castle asks for a whole block.
        if ((v instanceof ShortBufferException && b == null) || (v == null && b instanceof ShortBufferException)) {
            return "output space enough for only one of them";
        }
        // (8) Padded decryption's doFinal with an output too short for the padded length: VectorJCE
        //     (as SunJCE) decrypts into its own buffer to learn the unpadded length, so a corrupt
        //     padding is reported as BadPaddingException (the message is over); Bouncy Castle
        //     reports the short output first.
        if (op.kind().isFinal() && v instanceof javax.crypto.BadPaddingException && b instanceof ShortBufferException) {
            return "bad padding and short output: VectorJCE reports the padding, BC the output space";
        }
        // (7) doFinal with an input length that is not a block multiple (no padding) AND too little
        //     output space: the JCA names both exceptions and sets no order. VectorJCE reports the
        //     length (IllegalBlockSizeException, the message is over, the cipher is reset); Bouncy
        //     Castle (and SunJCE) check the output space first (ShortBufferException).
        if (op.kind().isFinal() && v instanceof javax.crypto.IllegalBlockSizeException && b instanceof ShortBufferException) {
            return "bad length and short output: VectorJCE reports the length, BC the output space";
        }
        return null;
    }

    private static boolean isInitRefusal(Throwable t) {
        return t instanceof InvalidKeyException || t instanceof InvalidAlgorithmParameterException;
    }

    /** The IV VectorJCE generated at this init, if it did (so Bouncy Castle gets the same one). */
    private static byte[] generatedIv(CipherProgram p, Event vjInit) {
        boolean generated = vjInit.ok() && vjInit.iv() != null && p.spec.generatesIv()
                && (p.ivKind == IvKind.NONE || p.ivKind == IvKind.NULL_SPEC);
        return generated ? vjInit.iv() : null;
    }

    static void replayOnBouncyCastle(CipherProgram p, byte[] message, List<Event> vj) {
        Run run = new Run(p, message, false, false);
        Cipher c;
        try {
            c = Cipher.getInstance(p.spec.transformation(), BC);
        } catch (Exception e) {
            throw new AssertionError("BC has no " + p.spec, e);
        }
        Event vjInit = vj.get(0);
        Event bcInit = ProgramRunner.doInit(run, c, generatedIv(p, vjInit));
        run.events.add(bcInit);
        String why = initMapping(p, vjInit, bcInit, run);
        if (why != null) {
            Stats.count("BC init mapped: " + why.replaceAll(" [0-9]+ bytes| \\(.*\\)|HmacSHA256|DES|Twofish|AES", ""));
        }
        if (why != null && why.startsWith("DROP")) {
            return;
        }
        ByteArrayOutputStream vjMsg = new ByteArrayOutputStream();
        ByteArrayOutputStream bcMsg = new ByteArrayOutputStream();
        boolean desync = false;
        for (int i = 0; i < p.ops.size(); i++) {
            Op op = p.ops.get(i);
            Event ve = vj.get(i + 1);
            if (op.kind() == Kind.REINIT) {
                vjInit = ve;
                Event be = ProgramRunner.doInit(run, c, generatedIv(p, vjInit));
                run.events.add(be);
                why = initMapping(p, ve, be, run);
                if (why != null && why.startsWith("DROP")) {
                    return;
                }
                desync = false;
                vjMsg.reset();
                bcMsg.reset();
                continue;
            }
            if (op.kind() == Kind.OUTPUT_SIZE || op.kind() == Kind.GET_IV) {
                // getOutputSize is an estimate each provider makes its own way (only "never smaller
                // than the output" is checked, on VectorJCE); parameter encodings are the providers' own.
                continue;
            }
            Event be = ProgramRunner.exec(run, c, op);
            run.events.add(be);
            if (!desync) {
                if (ve.ok() && be.ok()) {
                    vjMsg.writeBytes(ve.produced());
                    bcMsg.writeBytes(be.produced());
                    if (ve.messageEnd()) {
                        Stats.count("BC messages compared");
                    }
                    if (ve.messageEnd() && !Arrays.equals(vjMsg.toByteArray(), bcMsg.toByteArray())) {
                        throw run.fail("op " + i + " " + op + ": message output differs from Bouncy Castle\n  VectorJCE: "
                                + HEX.formatHex(vjMsg.toByteArray()) + "\n  BC:        " + HEX.formatHex(bcMsg.toByteArray())
                                + "\nVectorJCE events:\n" + ProgramRunner.describe(vj), null);
                    }
                } else if (ve.exClass() != be.exClass() && callMapping(op, ve, be) == null) {
                    throw run.fail("op " + i + " " + op + ": VectorJCE and Bouncy Castle disagree beyond the known"
                            + " JCA differences\n  VectorJCE: " + ve.outcome() + "\n  BC:        " + be.outcome()
                            + "\nVectorJCE events:\n" + ProgramRunner.describe(vj), ve.ex() != null ? ve.ex() : be.ex());
                } else if (ve.exClass() != be.exClass()) {
                    Stats.count("BC mapped: " + callMapping(op, ve, be).split(":")[0]);
                    desync = true;
                } else if (ve.messageEnd()) {
                    Stats.count("BC message exceptions compared");
                }
            }
            if (ve.messageEnd() || (!desync && be.messageEnd())) {
                if (desync || be.messageEnd() != ve.messageEnd()) {
                    // Start Bouncy Castle afresh with VectorJCE's key and IV.
                    Event re = ProgramRunner.doInit(run, c, generatedIv(p, vjInit));
                    run.events.add(re);
                }
                desync = false;
                vjMsg.reset();
                bcMsg.reset();
            }
        }
    }
}
