package org.vectorjce.internal.jca;

import java.util.Arrays;
import javax.crypto.BadPaddingException;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.ShortBufferException;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.mode.Mode;
import org.vectorjce.internal.mode.ModeRules;

/**
 * One message at a time through a keyed {@link Mode}: the buffering between {@code update}
 * calls, PKCS#5 padding, and the end of a message, for any mode, asking the mode's
 * {@link ModeRules} what to hold back and which lengths it takes. The {@code CipherSpi} checks
 * the caller's arguments (ranges, keys, IVs) before it calls here; this class checks only what
 * depends on the message: its length, the output space at {@link #doFinal}, the padding.
 *
 * <p>After {@link #doFinal}, whether it succeeded or failed on the input, the message restarts
 * with the same key and IV; a {@link ShortBufferException} changes nothing, so the call can be
 * retried.
 */
final class CipherCore {
    private static final int BLOCK = BlockKernel.BLOCK;

    private final ModeRules rules;
    private final boolean padding;
    private Mode mode;
    private boolean encrypt;
    /** The IV of the current message (valid when {@link #ivSet}); one array, reused by every start. */
    private final byte[] iv = new byte[BLOCK];
    private boolean ivSet;
    /** Input bytes not yet processed: a partial block, or blocks held back (padding, XTS). */
    private final byte[] buf = new byte[2 * BLOCK];
    /** Output of the held-back end of a message, before it is copied out. */
    private final byte[] tail = new byte[2 * BLOCK];
    private int buffered;
    /** Bytes of the current message already processed. */
    private long messageBytes;
    /** The message passed the mode's longest; nothing more was output and doFinal fails. */
    private boolean overLong;

    CipherCore(ModeRules rules, boolean padding) {
        this.rules = rules;
        this.padding = padding;
    }

    /** Starts a message on {@code mode} (keyed) in direction {@code encrypt}; {@code newIv} null for none. */
    void start(Mode mode, boolean encrypt, byte[] newIv) {
        this.mode = mode;
        this.encrypt = encrypt;
        if (newIv == null) {
            ivSet = false;
        } else {
            System.arraycopy(newIv, 0, iv, 0, BLOCK);
            ivSet = true;
        }
        restart();
    }

    /** Forgets the IV: a sector request gives every sector its own. */
    void clearIv() {
        ivSet = false;
    }

    /** A copy of the current IV, or null. */
    byte[] iv() {
        return ivSet ? iv.clone() : null;
    }

    boolean encrypting() {
        return encrypt;
    }

    // ---------------------------------------------------------------- sizes

    /** Bytes an update of {@code len} more input bytes writes now. */
    int updateOutputLength(int len) {
        return processableLength(len, false);
    }

    /** Bytes a doFinal of {@code len} more input bytes writes at most. */
    int outputSize(int len) {
        long n = (long) buffered + Math.max(len, 0);
        if (padding && encrypt) {
            n = (n / BLOCK + 1) * BLOCK;
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    /**
     * Bytes of buffered + {@code len} input that can go through the mode now; {@code last} when
     * no more input follows (doFinal).
     */
    private int processableLength(int len, boolean last) {
        long n = (long) buffered + len;
        long keep;
        if (padding && !encrypt) {
            // Hold back the last block: it carries the padding.
            keep = n % BLOCK == 0 ? Math.min(n, BLOCK) : n % BLOCK;
        } else {
            keep = rules.heldBack(n, last);
        }
        return (int) Math.min(n - keep, Integer.MAX_VALUE);
    }

    // ---------------------------------------------------------------- update

    /** Processes what can be processed now; the caller checked the ranges and the output space. */
    int update(byte[] in, int inOff, int len, byte[] out, int outOff) {
        return update(in, inOff, len, out, outOff, false);
    }

    private int update(byte[] in, int inOff, int len, byte[] out, int outOff, boolean last) {
        int p = processableLength(len, last);
        // The mode's last call of the message: everything that is left goes to processFinal
        // (a padded message still has its padding block to go).
        boolean finalCall = last && !padding && p == buffered + len;
        if (!last) { // doFinal checked the whole message's length already
            if (messageBytes + p > rules.maxMessageBytes() - BLOCK) {
                // Past the mode's longest message nothing more is output; doFinal reports the error.
                overLong = true;
                return 0;
            }
            messageBytes += p;
        }
        if (p == 0) {
            System.arraycopy(in, inOff, buf, buffered, len);
            buffered += len;
            return 0;
        }
        if (needsInputCopy(in, inOff, len, out, outOff, p, buffered)) {
            in = Arrays.copyOfRange(in, inOff, inOff + len);
            inOff = 0;
        }
        int done = 0;
        if (buffered > 0) {
            int take = Math.min(len, (BLOCK - buffered % BLOCK) % BLOCK);
            System.arraycopy(in, inOff, buf, buffered, take);
            buffered += take;
            inOff += take;
            len -= take;
            int fromBuf = Math.min(p, buffered & ~(BLOCK - 1));
            if (finalCall && fromBuf == p) {
                mode.processFinal(buf, 0, out, outOff, fromBuf);
            } else {
                mode.process(buf, 0, out, outOff, fromBuf);
            }
            buffered -= fromBuf;
            System.arraycopy(buf, fromBuf, buf, 0, buffered);
            done = fromBuf;
        }
        int direct = p - done;
        if (direct > 0) {
            if (finalCall) {
                mode.processFinal(in, inOff, out, outOff + done, direct);
            } else {
                mode.process(in, inOff, out, outOff + done, direct);
            }
            inOff += direct;
            len -= direct;
        }
        if (len > 0) {
            System.arraycopy(in, inOff, buf, buffered, len);
            buffered += len;
        }
        return p;
    }

    /**
     * Same array, overlapping ranges, and output ({@code produce} bytes) not exactly aligned with
     * the input it comes from ({@code buffered} bytes are held back): the input must be copied so
     * no byte is overwritten before it is read.
     */
    static boolean needsInputCopy(byte[] in, int inOff, int len, byte[] out, int outOff, int produce,
            int buffered) {
        return in == out && inOff < outOff + produce && outOff < inOff + len && (inOff != outOff || buffered != 0);
    }

    static void checkOutput(byte[] out, int outOff, int needed) throws ShortBufferException {
        if (out == null) {
            throw new IllegalArgumentException("Output buffer is null");
        }
        if (outOff < 0 || outOff > out.length) {
            throw new IllegalArgumentException("Bad output offset " + outOff + " for array length " + out.length);
        }
        if (out.length - outOff < needed) {
            throw new ShortBufferException("Output buffer too short: " + needed + " bytes needed, "
                    + (out.length - outOff) + " available");
        }
    }

    // ---------------------------------------------------------------- doFinal

    /** The rest of the message into {@code out} (its offset checked here); the input range was checked. */
    int doFinal(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        if (outOff < 0 || outOff > out.length) {
            // Checked before anything else so a bad call changes no state.
            throw new IllegalArgumentException("Bad output offset " + outOff + " for array length " + out.length);
        }
        long n = (long) buffered + len;
        // Errors in the input itself: the message is over; restart so the cipher can be reused.
        try {
            checkFinalLength(n);
        } catch (IllegalBlockSizeException e) {
            restart();
            throw e;
        }
        int space = out.length - outOff;
        if (padding && !encrypt && space < n) {
            // The plaintext may still fit once the padding is removed: decrypt into a buffer of
            // our own, and undo everything if it does not.
            return doFinalViaCopy(in, inOff, len, out, outOff);
        }
        checkOutput(out, outOff, outputSize(len));
        try {
            return finish(in, inOff, len, out, outOff);
        } finally {
            restart();
        }
    }

    private void checkFinalLength(long n) throws IllegalBlockSizeException {
        if (padding) {
            if (encrypt) {
                return;
            }
            if (n % BLOCK != 0) {
                throw new IllegalBlockSizeException("Input length " + n
                        + " not a multiple of 16 bytes when decrypting with padding");
            }
            if (n == 0) {
                throw new IllegalBlockSizeException("No input to decrypt: a padded message has at least one block");
            }
            return;
        }
        String problem = rules.lengthProblem(overLong ? Long.MAX_VALUE : messageBytes + n);
        if (problem != null) {
            throw new IllegalBlockSizeException(problem);
        }
    }

    private int doFinalViaCopy(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, BadPaddingException {
        byte[] savedBuf = buf.clone();
        int savedBuffered = buffered;
        byte[] savedState = mode.saveState();
        byte[] tmp = new byte[buffered + len];
        int n;
        try {
            n = finish(in, inOff, len, tmp, 0);
        } catch (BadPaddingException e) {
            Arrays.fill(tmp, (byte) 0);
            restart();
            throw e;
        }
        if (out.length - outOff < n) {
            Arrays.fill(tmp, (byte) 0);
            System.arraycopy(savedBuf, 0, buf, 0, buf.length);
            Arrays.fill(savedBuf, (byte) 0);
            buffered = savedBuffered;
            mode.restoreState(savedState);
            throw new ShortBufferException("Output buffer too short: " + n + " bytes needed, "
                    + (out.length - outOff) + " available");
        }
        System.arraycopy(tmp, 0, out, outOff, n);
        Arrays.fill(tmp, (byte) 0);
        Arrays.fill(savedBuf, (byte) 0);
        restart();
        return n;
    }

    /** Processes the whole rest of the message; lengths were checked. */
    private int finish(byte[] in, int inOff, int len, byte[] out, int outOff) throws BadPaddingException {
        int w = update(in, inOff, len, out, outOff, true);
        int o = outOff + w;
        if (!padding) {
            if (buffered == 0) {
                return w;
            }
            // What the mode held back to end the message itself (XTS: the ciphertext-stealing pair).
            int n = buffered;
            mode.processFinal(buf, 0, tail, 0, n);
            System.arraycopy(tail, 0, out, o, n);
            Arrays.fill(tail, (byte) 0);
            return w + n;
        }
        if (encrypt) {
            int pad = BLOCK - buffered;
            Arrays.fill(buf, buffered, BLOCK, (byte) pad);
            mode.processFinal(buf, 0, out, o, BLOCK);
            return w + BLOCK;
        }
        // Decrypt: buffered == 16, the last block. Padding check without an early exit or a
        // data-dependent branch per byte: (d | -d) >>> 31 is 1 exactly when d != 0. The only
        // branch is on the verdict; an unauthenticated CBC decryption is a padding oracle through
        // its exception anyway (authenticate the ciphertext first).
        byte[] last = tail;
        mode.processFinal(buf, 0, last, 0, BLOCK);
        int pad = last[BLOCK - 1] & 0xff;
        int bad = ((pad - 1) >>> 31) | ((BLOCK - pad) >>> 31); // pad == 0 or pad > 16
        for (int i = 0; i < BLOCK; i++) {
            int inPad = (BLOCK - 1 - i - pad) >>> 31; // 1 when i >= 16 - pad
            int d = (last[i] & 0xff) ^ pad;
            bad |= inPad & ((d | -d) >>> 31);
        }
        if (bad != 0) {
            Arrays.fill(last, (byte) 0);
            Arrays.fill(out, outOff, o, (byte) 0); // never hand out plaintext of a message that failed
            throw new BadPaddingException("Given final block not properly padded (PKCS#5)");
        }
        System.arraycopy(last, 0, out, o, BLOCK - pad);
        Arrays.fill(last, (byte) 0);
        return w + BLOCK - pad;
    }

    /** Back to the state right after the start: same key and IV, nothing buffered. */
    void restart() {
        mode.start(encrypt, ivSet ? iv : null);
        Arrays.fill(buf, (byte) 0);
        buffered = 0;
        messageBytes = 0;
        overLong = false;
    }
}
