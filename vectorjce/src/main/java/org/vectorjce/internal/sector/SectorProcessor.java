package org.vectorjce.internal.sector;

import java.util.Arrays;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.mode.Mode;

/**
 * The multi-sector path of a {@link SectorParameterSpec}: input split anywhere comes out as whole
 * sectors, each one data unit of the mode with the IV its dm-crypt generator gives it; a partial
 * sector waits for the rest. The IVs of a batch of sectors are made in one call (one kernel call
 * for ESSIV) and go with their sectors to {@link Mode#processUnits}, so XTS and LRW run the whole
 * request on their bulk path.
 *
 * <p>The {@code CipherSpi} checks the spec, the lengths and the output space and turns them into
 * JCA exceptions; this class trusts its caller. One instance serves a cipher's successive inits
 * ({@link #begin}), so a sector-by-sector user keeps its buffers.
 */
public final class SectorProcessor {
    private static final int BLOCK = BlockKernel.BLOCK;
    private final byte[] batchIvs = new byte[BLOCK * SectorEngine.BATCH];
    /** The spec in force, or null between {@link #end} and {@link #begin}. */
    private SectorParameterSpec spec;
    private IvGenerator ivs;
    private int size;
    /** The IV sector number step per sector: 1 with iv_large_sectors, else size / 512. */
    private long step;
    /** The first {@link #buffered} bytes of a sector whose rest has not arrived. */
    private byte[] partial;
    private int buffered;
    /** Sectors processed since {@link #begin} or the last {@link #restart}. */
    private long done;

    /**
     * Puts {@code spec} in force with the generator {@code ivs} (the caller checked that they fit
     * the mode), from its first sector and with nothing buffered. A previous generator that is not
     * {@code ivs} must have been destroyed by the caller.
     */
    public void begin(SectorParameterSpec spec, IvGenerator ivs) {
        this.spec = spec;
        this.ivs = ivs;
        this.size = spec.getSectorSize();
        this.step = spec.isIvLargeSectors() ? 1 : size / 512;
        if (partial == null || partial.length != size) {
            partial = new byte[size];
        } else {
            Arrays.fill(partial, (byte) 0);
        }
        buffered = 0;
        done = 0;
    }

    /** Leaves sector mode: the generator's key material (ESSIV's salt schedule) and the buffer are wiped. */
    public void end() {
        if (spec != null) {
            ivs.destroy();
            Arrays.fill(partial, (byte) 0);
            spec = null;
            ivs = null;
        }
    }

    /** Whether a spec is in force. */
    public boolean active() {
        return spec != null;
    }

    /** The spec in force. */
    public SectorParameterSpec spec() {
        return spec;
    }

    /** The IV generator in force. */
    public IvGenerator ivGenerator() {
        return ivs;
    }

    /** Bytes per sector. */
    public int sectorSize() {
        return size;
    }

    /** Bytes of a partial sector held back. */
    public int buffered() {
        return buffered;
    }

    /** Bytes an update of {@code len} more input bytes outputs: the whole sectors of buffered + len. */
    public int outputLength(int len) {
        long t = (long) buffered + len;
        return (int) Math.min(t - t % size, Integer.MAX_VALUE);
    }

    /**
     * Outputs the whole sectors of the buffered bytes and {@code in[inOff .. inOff + len)} through
     * {@code mode} into {@code out} and keeps the rest; returns the bytes written,
     * {@link #outputLength}{@code (len)}. Input and output ranges are disjoint, or identical with
     * nothing buffered.
     */
    public int update(Mode mode, byte[] in, int inOff, int len, byte[] out, int outOff) {
        int o = outOff;
        if (buffered > 0) {
            int take = Math.min(len, size - buffered);
            System.arraycopy(in, inOff, partial, buffered, take);
            buffered += take;
            inOff += take;
            len -= take;
            if (buffered == size) {
                run(mode, partial, 0, out, o, 1);
                o += size;
                buffered = 0;
            }
        }
        int whole = len / size;
        if (whole > 0) {
            run(mode, in, inOff, out, o, whole);
            o += whole * size;
            inOff += whole * size;
            len -= whole * size;
        }
        if (len > 0) {
            System.arraycopy(in, inOff, partial, buffered, len);
            buffered += len;
        }
        return o - outOff;
    }

    /** Back to the spec's first sector with nothing buffered (after doFinal). */
    public void restart() {
        Arrays.fill(partial, 0, buffered, (byte) 0);
        buffered = 0;
        done = 0;
    }

    /** {@code count} whole sectors, each one data unit with its own IV: the loop of {@link SectorEngine#run}. */
    private void run(Mode mode, byte[] in, int inOff, byte[] out, int outOff, int count) {
        SectorEngine.run(mode, ivs, (spec.getFirstSector() + done) * step, step, size, batchIvs, in, inOff, out, outOff,
                count);
        done += count;
    }
}
