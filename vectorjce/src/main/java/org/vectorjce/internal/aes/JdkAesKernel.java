package org.vectorjce.internal.aes;

import org.vectorjce.RawKey;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.Platform;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;

/**
 * {@code aes-jdk}: the bulk AES block work handed to the JDK's own {@code AES/ECB/NoPadding}
 * (SunJCE), which HotSpot compiles to AES-NI/VAES instructions ({@code UseAESIntrinsics}). No
 * Vector API instruction computes an AES round; this kernel gets hardware AES without native
 * code, while VectorJCE's modes supply what SunJCE lacks (XTS, LRW) around it.
 *
 * <p>One SunJCE cipher per key and direction, created at key set-up, never per call. Modes call
 * it with disjoint input and output ranges (SunJCE copies its input when they are the same array).
 * CBC and CTR go whole to SunJCE's intrinsified CBC and CTR through {@link #cbcEngine} and
 * {@link #ctrEngine()} (SunJCE's CTR counter is ours: the whole 16-byte block as a wrapping
 * big-endian integer); serial CBC encryption gains most.
 *
 * <p>Decryption of many blocks goes through SunJCE's CBC decryption where HotSpot has no
 * multi-block ECB stub ({@link Platform#ecbStubUnavailable}: every x86 CPU without AVX-512 VAES),
 * which decrypts four blocks at a time where its ECB decrypts one: CBC gives D(C_i) ⊕ C_(i-1),
 * and XORing C_(i-1) back gives D(C_i). SunJCE's CBC runs on as one stream across calls, so
 * C_(-1) of a call is the last block of the one before ({@link #chain}). Encryption has no such
 * way round: SunJCE's only multi-block encryption stubs there (CTR, GCM) encrypt counters.
 *
 * <p>Available only when the AES intrinsics are on, read from the HotSpot flag; without them
 * SunJCE runs a table implementation no better than {@code aes-table}. Constant-time as far as the
 * hardware AES instructions are.
 *
 * <p>Key hygiene: the raw key lives in this object (wiped by {@link #destroy()}); SunJCE keeps its
 * own expanded key, which {@code destroy()} overwrites by re-keying the ciphers with zeros.
 */
public final class JdkAesKernel extends BlockKernel {
    static final String NAME = "aes-jdk";

    /** Why this kernel cannot run here, or null (decided once, at class initialisation). */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    public static BlockKernel create(byte[] key) {
        return new JdkAesKernel(key);
    }

    private static final String UNAVAILABLE = checkAvailable();

    private static String checkAvailable() {
        if (sunJce() == null) {
            return "the SunJCE provider is not installed";
        }
        String[] aes = Platform.aesInstructions();
        if (aes[0] == null) {
            return aes[1];
        }
        if (!Boolean.parseBoolean(aes[0])) {
            return "the JVM's AES intrinsics are off (" + aes[1] + ")";
        }
        String c2 = Platform.c2Unavailable();
        if (c2 != null) {
            return c2 + "; SunJCE's AES is only hardware-accelerated in compiled code";
        }
        return null;
    }

    private static Provider sunJce() {
        return Security.getProvider("SunJCE");
    }

    /** The raw key as a destroyable SecretKey SunJCE can read. */
    private final RawKey key;
    /**
     * SunJCE's ECB ciphers, made on first use and kept across re-keys (XTS tweak keys never
     * decrypt; CBC and CTR through their stream engines never use either).
     */
    private Cipher enc, dec;
    /** {@link #dec} is SunJCE's CBC decryption, not its ECB (see the class comment). */
    private static final boolean DECRYPT_THROUGH_CBC = Platform.ecbStubUnavailable() != null;
    /** CBC decryption: the last ciphertext block SunJCE's CBC has read (its chaining value), zero at first. */
    private final byte[] chain = new byte[BLOCK];
    /** CBC decryption in place: the input, kept to XOR back; made on the first in-place call. */
    private byte[] copy;
    /** Counts re-keys: a stream engine keyed under an older generation re-initialises at its start. */
    private int generation;
    /** SunJCE calls this kernel and its engines have made, counted up to {@link #RAMP_CALLS}. */
    private int calls;

    private JdkAesKernel(byte[] keyBytes) {
        super(NAME);
        key = new RawKey("AES", keyBytes);
    }

    /**
     * Same key length: the key bytes are replaced in place and the SunJCE ciphers already made are
     * re-initialised with them (overwriting SunJCE's copy of the old schedule). Stream engines
     * re-initialise at their next start; an engine that will not be started again holds the old
     * key until its mode drops it (see {@code CbcMode.rekey}).
     */
    @Override
    public boolean rekey(byte[] keyBytes) {
        if (!key.replace(keyBytes)) {
            return false;
        }
        generation++;
        try {
            if (enc != null) {
                enc.init(Cipher.ENCRYPT_MODE, key);
            }
            if (dec != null) {
                initDec(dec);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SunJCE AES/ECB rejected a key", e);
        }
        return true;
    }

    private Cipher enc() {
        if (enc == null) {
            enc = ecb(Cipher.ENCRYPT_MODE);
        }
        return enc;
    }

    private Cipher dec() {
        if (dec == null) {
            if (DECRYPT_THROUGH_CBC) {
                try {
                    dec = Cipher.getInstance("AES/CBC/NoPadding", sunJce());
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("SunJCE AES/CBC unavailable", e);
                }
                initDec(dec);
            } else {
                dec = ecb(Cipher.DECRYPT_MODE);
            }
        }
        return dec;
    }

    /** Keys {@link #dec} with the current key: CBC from a zero chaining value. */
    private void initDec(Cipher c) {
        try {
            if (DECRYPT_THROUGH_CBC) {
                c.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(new byte[BLOCK]));
                Arrays.fill(chain, (byte) 0);
            } else {
                c.init(Cipher.DECRYPT_MODE, key);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SunJCE AES rejected a key", e);
        }
    }

    private Cipher ecb(int opmode) {
        try {
            Cipher c = Cipher.getInstance("AES/ECB/NoPadding", sunJce());
            c.init(opmode, key);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SunJCE AES/ECB unavailable", e);
        }
    }

    @Override
    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        run(enc(), in, inOff, out, outOff, blocks);
    }

    @Override
    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (!DECRYPT_THROUGH_CBC) {
            run(dec(), in, inOff, out, outOff, blocks);
            return;
        }
        Cipher c = dec();
        if (in != out || inOff != outOff) {
            // Disjoint ranges (the contract's other case): the input stays readable.
            run(c, in, inOff, out, outOff, blocks);
            unchain(in, inOff, out, outOff, blocks);
            return;
        }
        // In place: keep each piece of the input to XOR back.
        int want = Math.min(blocks, STREAM_PIECE / BLOCK) * BLOCK;
        if (copy == null || copy.length < want) {
            copy = new byte[want];
        }
        for (int done = 0; done < blocks; ) {
            int n = Math.min(blocks - done, copy.length / BLOCK);
            int off = inOff + done * BLOCK;
            System.arraycopy(in, off, copy, 0, n * BLOCK);
            run(c, copy, 0, out, off, n);
            unchain(copy, 0, out, off, n);
            done += n;
        }
    }

    /**
     * out_i ^= in_(i-1) for the {@code blocks} blocks SunJCE's CBC just decrypted from {@code in}
     * into {@code out} (disjoint), in_(-1) being {@link #chain}; then the chain is in's last block.
     */
    private void unchain(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (blocks == 0) {
            return;
        }
        xor16(out, outOff, chain, out, outOff);
        for (int i = 1; i < blocks; i++) {
            int o = outOff + i * BLOCK, p = inOff + (i - 1) * BLOCK;
            LE64.set(out, o, (long) LE64.get(out, o) ^ (long) LE64.get(in, p));
            LE64.set(out, o + 8, (long) LE64.get(out, o + 8) ^ (long) LE64.get(in, p + 8));
        }
        System.arraycopy(in, inOff + (blocks - 1) * BLOCK, chain, 0, BLOCK);
    }

    private void run(Cipher c, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        // ECB/NoPadding update on whole blocks outputs all of them and buffers nothing.
        feed(c, in, inOff, out, outOff, blocks * BLOCK, false);
    }

    /**
     * {@code len} bytes through SunJCE's {@code c}, at most {@link #RAMP_PIECE} per call for this
     * kernel's first {@link #RAMP_CALLS} calls and {@link #STREAM_PIECE} after, the last piece
     * through {@code doFinal} when {@code last}. Every call must output all its input (ECB and CBC
     * on whole blocks, CTR on any length). Callers pass distinct or identical ranges, never shifted
     * overlapping ones, so piece by piece is safe in place.
     */
    private void feed(Cipher c, byte[] in, int inOff, byte[] out, int outOff, int len, boolean last) {
        try {
            for (int done = 0; done < len; ) {
                int piece = Math.min(len - done, calls < RAMP_CALLS ? RAMP_PIECE : STREAM_PIECE);
                if (calls < RAMP_CALLS) {
                    calls++;
                }
                boolean end = last && done + piece == len;
                int n = end ? c.doFinal(in, inOff + done, piece, out, outOff + done)
                        : c.update(in, inOff + done, piece, out, outOff + done);
                if (n != piece) {
                    throw new AssertionError("SunJCE " + c.getAlgorithm() + " returned " + n + " of " + piece + " bytes");
                }
                done += piece;
            }
        } catch (GeneralSecurityException e) {
            throw new AssertionError("SunJCE " + c.getAlgorithm() + " rejected " + len + " bytes", e);
        }
    }

    @Override
    public StreamEngine cbcEngine(boolean encrypt) {
        return engine("AES/CBC/NoPadding", encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE);
    }

    @Override
    public StreamEngine ctrEngine() {
        return engine("AES/CTR/NoPadding", Cipher.ENCRYPT_MODE);
    }

    /**
     * The most bytes handed to a SunJCE cipher per call once a kernel is past its first
     * {@link #RAMP_CALLS} calls. At 64 KiB the call is a small part of a piece's work.
     */
    static final int STREAM_PIECE = 64 * 1024;

    /**
     * The piece size of a kernel's first {@link #RAMP_CALLS} SunJCE calls. SunJCE reaches its
     * multi-block AES intrinsics (CBC decryption, CTR) only where C2 has compiled the SunJCE
     * methods a call goes through ({@code CipherCore.update}, {@code CipherBlockChaining.decrypt}),
     * and those have no loop, so the JIT compiles them after thousands of calls, whatever their
     * length: in 64 KiB pieces a fresh JVM runs tens of MiB on SunJCE's one-block intrinsic
     * first, in 1 KiB pieces a few MiB (the figures: {@code docs/performance.md}, "The mode
     * arithmetic from the first call"). Counted per kernel, so the choice depends only on what
     * this key has processed, never on time or on other callers.
     */
    static final int RAMP_PIECE = 1024;

    /** How many SunJCE calls a kernel makes in {@link #RAMP_PIECE} pieces (16 MiB). */
    static final int RAMP_CALLS = 16384;

    /**
     * A SunJCE CBC or CTR cipher run as a stream. Re-initialising SunJCE per message costs more
     * than a short message's blocks (and allocates); when the IV is the one already set, the
     * message ends with SunJCE's doFinal, which rewinds it to that IV, or a zero-length doFinal
     * rewinds it at the next start.
     *
     * <p>CBC never re-initialises SunJCE for a new IV under the same key: SunJCE stands at its own
     * IV S after every doFinal, and a message with IV V differs from one with S only in its first
     * block, by Δ = V ⊕ S. Encryption feeds P_1 ⊕ Δ (C_1 = E(P_1 ⊕ V)); decryption XORs Δ into
     * the first output block (P_1 = D(C_1) ⊕ S ⊕ Δ). A same-key re-init then costs a 16-byte XOR
     * instead of SunJCE's re-init, which allocates.
     */
    private StreamEngine engine(String transformation, int opmode) {
        Cipher c;
        try {
            c = Cipher.getInstance(transformation, sunJce());
        } catch (GeneralSecurityException e) {
            return null;
        }
        boolean cbc = transformation.startsWith("AES/CBC");
        boolean encrypting = opmode == Cipher.ENCRYPT_MODE;
        return new StreamEngine() {
            /** SunJCE's own IV: where its doFinal rewinds it to. */
            private final byte[] iv = new byte[BLOCK];
            private final byte[] none = new byte[0];
            /** CBC: Δ = this message's IV ⊕ {@link #iv}, and the first block's scratch. */
            private final byte[] delta = cbc ? new byte[BLOCK] : null;
            private final byte[] first = cbc && encrypting ? new byte[BLOCK] : null;
            private boolean deltaPending;
            private boolean initialised;
            /** The kernel's {@link #generation} when SunJCE was last keyed. */
            private int keyedAt;
            /** SunJCE stands at the start of {@link #iv}: nothing processed since init or doFinal. */
            private boolean atStart;

            @Override
            public void start(byte[] newIv) {
                try {
                    deltaPending = false;
                    if (initialised && keyedAt == generation && (cbc || Arrays.equals(iv, newIv))) {
                        if (!atStart) {
                            c.doFinal(none, 0, 0, none, 0);
                        }
                        if (cbc) {
                            long d0 = (long) LE64.get(newIv, 0) ^ (long) LE64.get(iv, 0);
                            long d1 = (long) LE64.get(newIv, 8) ^ (long) LE64.get(iv, 8);
                            LE64.set(delta, 0, d0);
                            LE64.set(delta, 8, d1);
                            deltaPending = (d0 | d1) != 0;
                        }
                    } else {
                        // SunJCE keeps its expanded key when re-initialised with the same key bytes.
                        c.init(opmode, key, new IvParameterSpec(newIv));
                        System.arraycopy(newIv, 0, iv, 0, BLOCK);
                        initialised = true;
                        keyedAt = generation;
                    }
                    atStart = true;
                } catch (GeneralSecurityException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
                run(in, inOff, out, outOff, len, false);
            }

            @Override
            public void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len) {
                run(in, inOff, out, outOff, len, true);
            }

            private void run(byte[] in, int inOff, byte[] out, int outOff, int len, boolean last) {
                if (len == 0) {
                    return;
                }
                // The last piece of a message's last call is SunJCE's doFinal, which rewinds it
                // to the IV for the next message.
                if (deltaPending) {
                    deltaPending = false;
                    if (encrypting) {
                        // The first block alone, from scratch (the caller's input is not ours to
                        // change); in place, the rest of the input is still unread after it.
                        xor16(in, inOff, delta, first, 0);
                        feed(c, first, 0, out, outOff, BLOCK, last && len == BLOCK);
                        Arrays.fill(first, (byte) 0);
                        if (len > BLOCK) {
                            feed(c, in, inOff + BLOCK, out, outOff + BLOCK, len - BLOCK, last);
                        }
                    } else {
                        feed(c, in, inOff, out, outOff, len, last);
                        xor16(out, outOff, delta, out, outOff);
                    }
                } else {
                    feed(c, in, inOff, out, outOff, len, last);
                }
                atStart = last;
            }

            @Override
            public void destroy() {
                wipe(c);
            }
        };
    }

    private static final java.lang.invoke.VarHandle LE64 = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** dst[dOff..+16) = a[aOff..+16) ^ d[0..16). */
    private static void xor16(byte[] a, int aOff, byte[] d, byte[] dst, int dOff) {
        LE64.set(dst, dOff, (long) LE64.get(a, aOff) ^ (long) LE64.get(d, 0));
        LE64.set(dst, dOff + 8, (long) LE64.get(a, aOff + 8) ^ (long) LE64.get(d, 8));
    }

    @Override
    public void destroy() {
        if (enc != null) {
            wipe(enc);
        }
        if (dec != null) {
            wipe(dec);
        }
        // Ciphertext only, but nothing of a destroyed kernel is left behind.
        Arrays.fill(chain, (byte) 0);
        if (copy != null) {
            Arrays.fill(copy, (byte) 0);
        }
        key.destroy();
    }

    /** Re-keys a SunJCE cipher with zeros so its copy of the expanded key is overwritten. */
    private static void wipe(Cipher c) {
        try {
            c.init(Cipher.ENCRYPT_MODE, new RawKey("AES", new byte[16]));
        } catch (GeneralSecurityException | RuntimeException e) {
            // Nothing more can be done; the cipher is dropped with this kernel.
        }
    }
}
