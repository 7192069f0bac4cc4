package org.vectorjce.fuzz;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import javax.crypto.Cipher;

/**
 * One decoded fuzz case: a transformation, a kernel, a key (of a valid or invalid length, with the
 * right or a wrong algorithm name), an IV (right, wrong length, missing, wrong parameter type), a
 * direction, and a sequence of {@code Cipher} calls — {@code update}/{@code doFinal} with arrays
 * (with offsets and lengths, some of them bad), heap/direct/read-only/sliced {@code ByteBuffer}s,
 * the same array in and out at shifted offsets, {@code getOutputSize}, re-{@code init} mid-stream.
 *
 * <p>Decoding never fails: every input, however short, decodes to a program ({@link FuzzInput}
 * returns its lowest choices once exhausted). The program is pure data; {@link ProgramRunner}
 * runs it against a provider.
 */
final class CipherProgram {

    /** One of the 14 transformations. */
    record Spec(String alg, String mode, boolean padded) {
        String transformation() {
            return alg + "/" + mode + "/" + (padded ? "PKCS5Padding" : "NoPadding");
        }

        boolean ecb() {
            return mode.equals("ECB");
        }

        boolean xts() {
            return mode.equals("XTS");
        }

        boolean lrw() {
            return mode.equals("LRW");
        }

        /** Whether Bouncy Castle's JCA provider has this transformation (it has no XTS or LRW). */
        boolean inBouncyCastle() {
            return !xts() && !lrw();
        }

        /** CBC and CTR encryption without an IV generate one. */
        boolean generatesIv() {
            return mode.equals("CBC") || mode.equals("CTR");
        }

        int[] keyLengths() {
            return xts() ? new int[] {32, 48, 64} : lrw() ? new int[] {32, 40, 48} : new int[] {16, 24, 32};
        }

        String scalarKernel() {
            return org.vectorjce.TestProviders.scalarKernel(alg);
        }

        @Override
        public String toString() {
            return transformation();
        }
    }

    static final List<Spec> SPECS;

    static {
        List<Spec> l = new ArrayList<>();
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            l.add(new Spec(alg, "ECB", false));
            l.add(new Spec(alg, "ECB", true));
            l.add(new Spec(alg, "CBC", false));
            l.add(new Spec(alg, "CBC", true));
            l.add(new Spec(alg, "CTR", false));
            l.add(new Spec(alg, "XTS", false));
            l.add(new Spec(alg, "LRW", false));
        }
        SPECS = List.copyOf(l);
    }

    /** How {@code init} is called. */
    enum IvKind {
        /** {@code init(op, key, random)}. */
        NONE,
        /** {@code init(op, key, new IvParameterSpec(iv), random)}. */
        SPEC,
        /** {@code init(op, key, AlgorithmParameters holding iv, random)}. */
        PARAMS,
        /** {@code init(op, key, (AlgorithmParameterSpec) null, random)}. */
        NULL_SPEC,
        /** {@code init(op, key, new PBEParameterSpec(..), random)}: a parameter type no mode takes. */
        WRONG_TYPE
    }

    enum Kind {
        UPDATE_WHOLE, UPDATE_RET, UPDATE_OUT, UPDATE_BB, UPDATE_SAME,
        FINAL_EMPTY, FINAL_WHOLE, FINAL_RET, FINAL_OUT, FINAL_OUT_ONLY, FINAL_BB, FINAL_SAME,
        OUTPUT_SIZE, REINIT, GET_IV;

        boolean isFinal() {
            return name().startsWith("FINAL");
        }
    }

    /** Offset meaning "array length + 1", resolved when the array exists. */
    static final int PAST_END = Integer.MIN_VALUE + 1;

    /** Kinds of ByteBuffer. */
    enum Buf { HEAP, DIRECT, SLICED_HEAP, READ_ONLY_HEAP, READ_ONLY_DIRECT }

    /**
     * One call. Which fields matter depends on {@link #kind}: {@code inOff}/{@code inLen} (may be
     * bad), {@code inSlack} (extra bytes after the input in its array), {@code outOff} (may be bad),
     * {@code outRoom} (output space after {@code outOff}; may be short), {@code outNull}, the buffer
     * kinds and positions, and {@code shift} (output offset minus input offset for the same-array
     * forms). {@code dataStart} is where the input bytes are taken from the message, cyclically.
     */
    record Op(Kind kind, int inOff, int inLen, int inSlack, int outOff, int outRoom, boolean outNull,
              Buf inBuf, Buf outBuf, int inPos, int outPos, int shift, int dataStart) {
        @Override
        public String toString() {
            return switch (kind) {
                case UPDATE_WHOLE, FINAL_WHOLE -> kind + "(len " + inLen + ")";
                case UPDATE_RET, FINAL_RET -> kind + "(off " + off(inOff) + ", len " + inLen + ", slack " + inSlack + ")";
                case UPDATE_OUT, FINAL_OUT -> kind + "(off " + off(inOff) + ", len " + inLen + ", slack " + inSlack
                        + (outNull ? ", out null" : ", outOff " + off(outOff) + ", outRoom " + outRoom) + ")";
                case FINAL_OUT_ONLY -> kind + "(" + (outNull ? "out null" : "outOff " + off(outOff) + ", outRoom " + outRoom) + ")";
                case UPDATE_BB, FINAL_BB -> kind + "(len " + inLen + ", in " + inBuf + "@" + inPos + ", out " + outBuf
                        + "@" + outPos + ", outRoom " + outRoom + ")";
                case UPDATE_SAME, FINAL_SAME -> kind + "(off " + off(inOff) + ", len " + inLen + ", shift " + shift + ")";
                case OUTPUT_SIZE -> kind + "(" + inLen + ")";
                default -> kind.toString();
            };
        }

        private static String off(int o) {
            return o == PAST_END ? "length+1" : Integer.toString(o);
        }
    }

    final Spec spec;
    final String kernel;
    final byte[] key;
    final String keyAlg;
    final IvKind ivKind;
    final byte[] iv;
    final int opmode;
    /** Seeds the plaintext/ciphertext bytes and the SecureRandom handed to init. */
    final long seed;
    final int messageLength;
    /** Decryption input made by encrypting a random plaintext, so padding is mostly valid. */
    final boolean validCiphertext;
    final List<Op> ops;

    private CipherProgram(Spec spec, String kernel, byte[] key, String keyAlg, IvKind ivKind, byte[] iv, int opmode,
                          long seed, int messageLength, boolean validCiphertext, List<Op> ops) {
        this.spec = spec;
        this.kernel = kernel;
        this.key = key;
        this.keyAlg = keyAlg;
        this.ivKind = ivKind;
        this.iv = iv;
        this.opmode = opmode;
        this.seed = seed;
        this.messageLength = messageLength;
        this.validCiphertext = validCiphertext;
        this.ops = ops;
    }

    boolean encrypt() {
        return opmode == Cipher.ENCRYPT_MODE;
    }

    /** Whether the key must be refused: a wrong length, another cipher's name, or (XTS encryption) K1 == K2. */
    boolean keyFault() {
        boolean badLength = java.util.Arrays.stream(spec.keyLengths()).noneMatch(l -> l == key.length);
        boolean badAlg = !(keyAlg.equalsIgnoreCase(spec.alg())
                || (spec.alg().equals("AES") && keyAlg.equalsIgnoreCase("Rijndael")));
        boolean equalHalves = spec.xts() && encrypt() && !badLength
                && java.util.Arrays.equals(key, 0, key.length / 2, key, key.length / 2, key.length);
        return badLength || badAlg || equalHalves;
    }

    /**
     * Whether the parameters must be refused: an IV for ECB, an IV of the wrong length, a parameter
     * type no mode takes, or no IV where none may be generated (decryption, XTS, LRW).
     */
    boolean ivFault() {
        if (ivKind == IvKind.WRONG_TYPE) {
            return true;
        }
        if (spec.ecb()) {
            return ivKind == IvKind.SPEC || ivKind == IvKind.PARAMS;
        }
        if (ivKind == IvKind.NONE || ivKind == IvKind.NULL_SPEC) {
            return !(encrypt() && spec.generatesIv());
        }
        return iv.length != 16;
    }

    /** Bytes of the message the program feeds, before {@link ProgramRunner} may replace them by ciphertext. */
    byte[] plainMessage() {
        byte[] m = new byte[messageLength];
        new Random(seed).nextBytes(m);
        return m;
    }

    // ------------------------------------------------------------------ decoding

    private static final int[] BAD_KEY_LENGTHS = {0, 1, 8, 15, 17, 20, 31, 33, 40, 47, 56, 63, 65, 80};
    private static final int[] BAD_IV_LENGTHS = {0, 1, 8, 12, 15, 17, 32};

    static CipherProgram decode(FuzzInput in) {
        Spec spec = SPECS.get(in.intIn(0, SPECS.size() - 1));
        List<String> kernels = org.vectorjce.TestProviders.kernelsToTest(spec.alg());
        String kernel = kernels.get(in.intIn(0, kernels.size() - 1));

        // Key: mostly a valid length; sometimes an invalid one, an alias or a wrong algorithm name.
        int keyChoice = in.intIn(0, 15);
        int[] lens = spec.keyLengths();
        int keyLen = keyChoice < 12 ? lens[keyChoice % 3]
                : keyChoice == 12 ? BAD_KEY_LENGTHS[in.intIn(0, BAD_KEY_LENGTHS.length - 1)]
                : keyChoice == 13 ? otherFamilyLength(spec, in)
                : lens[in.intIn(0, 2)];
        String keyAlg = spec.alg();
        if (keyChoice == 14) {
            keyAlg = spec.alg().equals("AES") ? "Rijndael" : "TWOFISH"; // an alias / other spelling
        } else if (keyChoice == 15) {
            String[] wrong = {"DES", "HmacSHA256", spec.alg().equals("AES") ? "Serpent" : "AES"};
            keyAlg = wrong[in.intIn(0, wrong.length - 1)];
        }
        byte[] key = in.bytes(keyLen);
        if (spec.xts() && keyLen % 2 == 0 && in.intIn(0, 7) == 0) {
            System.arraycopy(key, 0, key, keyLen / 2, keyLen / 2); // K1 == K2
        }

        // IV.
        int ivChoice = in.intIn(0, 9);
        IvKind ivKind;
        int ivLen = 16;
        if (spec.ecb()) {
            ivKind = ivChoice <= 6 ? IvKind.NONE : ivChoice == 7 ? IvKind.SPEC : ivChoice == 8 ? IvKind.NULL_SPEC : IvKind.WRONG_TYPE;
        } else {
            ivKind = ivChoice <= 4 ? IvKind.SPEC : ivChoice == 5 ? IvKind.PARAMS : ivChoice == 6 ? IvKind.NONE
                    : ivChoice == 7 ? IvKind.NULL_SPEC : ivChoice == 8 ? IvKind.SPEC : IvKind.WRONG_TYPE;
            if (ivChoice == 8) {
                ivLen = BAD_IV_LENGTHS[in.intIn(0, BAD_IV_LENGTHS.length - 1)];
            }
        }
        byte[] iv = in.bytes(ivLen);
        if (spec.mode().equals("CTR") && in.intIn(0, 3) == 0) {
            // Counter blocks near a wrap: the low 8 (or all 16) bytes all ones.
            for (int i = in.bool() ? 0 : 8; i < 16 && i < iv.length; i++) {
                iv[i] = (byte) 0xff;
            }
        }

        int opmode = in.bool() ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
        long seed = in.longValue();
        int sizeClass = in.intIn(0, 7);
        int messageLength = switch (sizeClass) {
            case 0, 1, 2 -> in.intIn(0, 64);
            case 3, 4 -> in.intIn(0, 300);
            case 5, 6 -> in.intIn(0, 1100);
            default -> in.intIn(1100, 4200);
        };
        boolean validCiphertext = opmode == Cipher.DECRYPT_MODE && in.intIn(0, 2) != 0;

        int nOps = in.intIn(1, 10);
        List<Op> ops = new ArrayList<>();
        int cursor = 0;
        for (int i = 0; i < nOps; i++) {
            Op op = decodeOp(in, cursor, messageLength);
            ops.add(op);
            if (op.inLen() > 0 && op.inLen() < (1 << 16)) {
                cursor += op.inLen();
            }
            if (op.kind().isFinal() || op.kind() == Kind.REINIT) {
                cursor = 0; // a new message starts from the top again (valid ciphertext stays valid)
            }
        }
        return new CipherProgram(spec, kernel, key, keyAlg, ivKind, iv, opmode, seed, messageLength,
                validCiphertext, List.copyOf(ops));
    }

    private static int otherFamilyLength(Spec spec, FuzzInput in) {
        // A length valid for another mode of the same cipher, so the per-mode rules are exercised.
        int[] l = spec.xts() || spec.lrw() ? new int[] {16, 24, 56, 64} : new int[] {40, 48, 64};
        return l[in.intIn(0, l.length - 1)];
    }

    /** An input length: mostly sensible, sometimes bad (negative, huge). */
    private static int length(FuzzInput in, int messageLength) {
        int c = in.intIn(0, 15);
        return switch (c) {
            case 0, 1, 2 -> in.intIn(0, 17);
            case 3, 4, 5 -> 16 * in.intIn(0, 4);
            case 6, 7, 8, 9 -> in.intIn(0, Math.max(1, messageLength));
            case 10, 11 -> in.intIn(0, 600);
            case 12 -> 16 * in.intIn(0, 70) + in.intIn(-1, 1);
            case 13 -> Math.max(0, messageLength);
            case 14 -> -1 - in.intIn(0, 1);
            default -> new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 15}[in.intIn(0, 2)];
        };
    }

    /** A length that is always usable as a size (for the forms that build their own buffers). */
    private static int goodLength(FuzzInput in, int messageLength) {
        int l = length(in, messageLength);
        return l >= 0 && l <= (1 << 16) ? l : in.intIn(0, 64);
    }

    /** An offset: mostly small, sometimes past the end, negative or huge. */
    private static int offset(FuzzInput in) {
        int c = in.intIn(0, 31);
        if (c < 28) {
            return in.intIn(0, c < 20 ? 3 : 40);
        }
        return new int[] {-1, PAST_END, Integer.MAX_VALUE, Integer.MIN_VALUE}[c - 28];
    }

    /** Output space: near the input length (so short buffers happen), ample, or none. */
    private static int room(FuzzInput in, int inLen) {
        int base = Math.max(0, Math.min(inLen, 1 << 16));
        int c = in.intIn(0, 7);
        return switch (c) {
            case 0, 1, 2 -> Math.max(0, base + in.intIn(-17, 17));
            case 3 -> Math.max(0, base + 32 * in.intIn(-2, 2) + in.intIn(-1, 1));
            case 4 -> 0;
            default -> base + 48;
        };
    }

    private static Buf buf(FuzzInput in) {
        Buf[] all = Buf.values();
        int c = in.intIn(0, 9);
        return c < 4 ? Buf.HEAP : c < 6 ? Buf.DIRECT : all[c - 5];
    }

    private static Op decodeOp(FuzzInput in, int cursor, int messageLength) {
        Kind kind;
        int k = in.intIn(0, 31);
        // Weighted: plenty of update/doFinal with output arrays and buffers. (An exhausted input
        // decodes to 0: a plain doFinal(input).)
        kind = switch (k) {
            case 0, 1 -> Kind.FINAL_WHOLE;
            case 2, 3, 4 -> Kind.UPDATE_RET;
            case 5, 6, 7, 8 -> Kind.UPDATE_OUT;
            case 9, 10, 11 -> Kind.UPDATE_BB;
            case 12, 13 -> Kind.UPDATE_SAME;
            case 14, 15 -> Kind.FINAL_EMPTY;
            case 16, 17 -> Kind.UPDATE_WHOLE;
            case 18, 19 -> Kind.FINAL_RET;
            case 20, 21, 22 -> Kind.FINAL_OUT;
            case 23 -> Kind.FINAL_OUT_ONLY;
            case 24, 25 -> Kind.FINAL_BB;
            case 26, 27 -> Kind.FINAL_SAME;
            case 28 -> Kind.OUTPUT_SIZE;
            case 29, 30 -> Kind.REINIT;
            default -> Kind.GET_IV;
        };
        int inOff = 0;
        int inLen = 0;
        int inSlack = 0;
        int outOff = 0;
        int outRoom = 0;
        boolean outNull = false;
        Buf inBuf = Buf.HEAP;
        Buf outBuf = Buf.HEAP;
        int inPos = 0;
        int outPos = 0;
        int shift = 0;
        switch (kind) {
            case UPDATE_WHOLE, FINAL_WHOLE -> inLen = goodLength(in, messageLength);
            case UPDATE_RET, FINAL_RET -> {
                inOff = offset(in);
                inLen = length(in, messageLength);
                inSlack = in.intIn(0, 3);
            }
            case UPDATE_OUT, FINAL_OUT -> {
                inOff = offset(in);
                inLen = length(in, messageLength);
                inSlack = in.intIn(0, 3);
                outNull = in.intIn(0, 31) == 0;
                outOff = offset(in);
                outRoom = room(in, inLen);
            }
            case FINAL_OUT_ONLY -> {
                outNull = in.intIn(0, 31) == 0;
                outOff = offset(in);
                outRoom = room(in, 16);
            }
            case UPDATE_BB, FINAL_BB -> {
                inLen = goodLength(in, messageLength);
                inBuf = buf(in);
                outBuf = buf(in);
                inPos = in.intIn(0, 20);
                outPos = in.intIn(0, 20);
                outRoom = room(in, inLen);
            }
            case UPDATE_SAME, FINAL_SAME -> {
                inOff = in.intIn(0, 40);
                inLen = goodLength(in, messageLength);
                int[] shifts = {0, 0, 1, -1, 16, -16, 17, -17, 15, 32, -32};
                int c = in.intIn(0, shifts.length);
                shift = c < shifts.length ? shifts[c] : in.intIn(-40, 40);
            }
            case OUTPUT_SIZE -> inLen = in.intIn(0, 15) == 0 ? -1 : in.intIn(0, 5000);
            default -> {
            }
        }
        return new Op(kind, inOff, inLen, inSlack, outOff, outRoom, outNull, inBuf, outBuf, inPos, outPos, shift, cursor);
    }

    // ------------------------------------------------------------------ description

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        StringBuilder sb = new StringBuilder();
        sb.append(spec).append(" kernel ").append(kernel)
                .append(encrypt() ? " ENCRYPT" : " DECRYPT")
                .append("\n  key (").append(key.length).append(" bytes, alg ").append(keyAlg).append(") ")
                .append(hex.formatHex(key))
                .append("\n  init ").append(ivKind)
                .append(ivKind == IvKind.SPEC || ivKind == IvKind.PARAMS ? " iv " + hex.formatHex(iv) : "")
                .append("\n  message ").append(messageLength).append(" bytes, seed ").append(seed)
                .append(validCiphertext ? ", valid ciphertext" : "");
        for (int i = 0; i < ops.size(); i++) {
            sb.append("\n  ").append(i).append(": ").append(ops.get(i));
        }
        return sb.toString();
    }
}
