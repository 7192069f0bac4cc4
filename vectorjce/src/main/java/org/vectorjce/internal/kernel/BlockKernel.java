package org.vectorjce.internal.kernel;

/**
 * A keyed block cipher (layer 3 with its layer-4 kernel): the key schedule plus the single- and
 * multi-block calls the modes use. Instances are created by a {@link KernelFactory} at key set-up
 * and are not thread-safe (one per {@code Cipher}).
 *
 * <p>Contract, trusted by every mode (checks happen at the JCA edge, never here):
 * <ul>
 *   <li>{@code blocks >= 0}; all ranges lie inside their arrays;</li>
 *   <li>input and output ranges are either disjoint or identical (same array, same offset):
 *       in-place works, shifted overlap does not;</li>
 *   <li>kernels never throw.</li>
 * </ul>
 */
public abstract class BlockKernel {
    /** Block size of both ciphers, in bytes. */
    public static final int BLOCK = 16;

    private final String name;

    protected BlockKernel(String name) {
        this.name = name;
    }

    /** The registry name of the kernel that computes this key's blocks, e.g. {@code aes-table}. */
    public final String name() {
        return name;
    }

    public abstract void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks);

    public abstract void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks);

    /**
     * A whole-stream CBC engine (encryption or decryption) for kernels that run CBC better
     * themselves — the JDK kernel hands it to SunJCE's intrinsified CBC; {@code null}, the
     * default, means the CBC mode drives {@link #encryptBlocks}/{@link #decryptBlocks}.
     */
    public StreamEngine cbcEngine(boolean encrypt) {
        return null;
    }

    /**
     * A whole-stream CTR engine, as {@link #cbcEngine} (SunJCE's CTR uses the same 128-bit
     * big-endian wrapping counter); {@code null} means the CTR mode builds counter blocks.
     */
    public StreamEngine ctrEngine() {
        return null;
    }

    /**
     * Blocks this kernel runs as one batch, where a call with fewer runs them one at a time on a
     * slower tail; 1, the default, for a kernel without such batches. A caller that can see blocks
     * coming (XTS's first tweaks for sectors read in order) asks for this many at once.
     */
    public int batchBlocks() {
        return 1;
    }

    /**
     * CTR's key stream XORed straight into the data, for kernels that build counter blocks in their
     * own word layout: XORs the key stream of the first {@code b <= blocks} counter blocks from
     * {@code ctr} (the 128-bit big-endian counter as {hi, lo}, advanced by {@code b}, wrapping
     * modulo 2^128) into {@code in}, writing {@code out}, and returns {@code b}. The CTR mode runs
     * the blocks this leaves with {@link #encryptBlocks}; the default, 0, leaves them all.
     */
    public int ctrXor(long[] ctr, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        return 0;
    }

    /**
     * XTS over whole blocks for kernels that make the tweaks in their own word layout: for the
     * first {@code b <= blocks} blocks, {@code out_j = E(in_j ⊕ T_j) ⊕ T_j} ({@code D} when
     * {@code !encrypt}), with {@code T_0 = tweak} ({lo, hi}, little-endian halves) and
     * {@code T_(j+1) = T_j·α} (IEEE 1619-2007 §5.2); leaves {@code tweak} at {@code T_b} and
     * returns {@code b}. The XTS mode runs the blocks this leaves with its own passes; the
     * default, 0, leaves them all.
     */
    public int xts(boolean encrypt, long[] tweak, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        return 0;
    }

    /**
     * A mode run whole by the kernel: {@link #start} per message (or to rewind to a chaining
     * value), then {@link #process} on what the mode would process, in order, and
     * {@link #processFinal} on the message's last piece, which leaves the engine rewound to the
     * IV of its last start.
     */
    public interface StreamEngine {
        void start(byte[] iv);

        void process(byte[] in, int inOff, byte[] out, int outOff, int len);

        void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len);

        void destroy();
    }

    /**
     * Re-keys this kernel in place with a key of the same length, overwriting the old schedule and
     * keeping everything that belongs to the kernel rather than to the key (tables, scratch, the
     * JDK's cipher objects, native memory). Returns false, changing nothing, when the kernel cannot
     * (another key length); the caller then creates a new kernel and destroys this one.
     * {@code key} is owned and wiped by the caller.
     */
    public boolean rekey(byte[] key) {
        return false;
    }

    /** Overwrites the key schedule; the kernel must not be used afterwards. */
    public abstract void destroy();

    @Override
    public String toString() {
        // Never key material: only the kernel's name.
        return "BlockKernel[" + name + "]";
    }
}
