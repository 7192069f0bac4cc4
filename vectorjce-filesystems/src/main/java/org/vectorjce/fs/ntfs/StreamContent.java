package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;

/**
 * The bytes of one attribute's value: a resident value, or non-resident clusters found through its
 * {@link RunList}. Sparse runs and every byte past the initialized size read as zeros. A compressed
 * attribute (flag 0x0001, compression unit 2^n clusters, 16 for LZNT1) is read a unit at a time: a
 * unit whose clusters are all allocated is stored as is, one with none is zeros, and one with some
 * allocated clusters followed by sparse ones holds LZNT1 data in those clusters (keramics ntfs.md
 * "Compressed data", TSK {@code ntfs_attr_walk_special}). The last decompressed unit is kept, under
 * a lock, for sequential reads. Safe for many threads.
 */
final class StreamContent implements Content {
    /** The largest compression unit read (2^4 clusters of 64 KiB): bounds the unit buffer. */
    static final int MAX_UNIT = 1 << 20;
    /** Zeros for holes (never written). */
    private static final byte[] ZERO = new byte[8192];

    /** Where the clusters are read from: the device, or a {@link org.vectorjce.fs.spi.BlockCache} for metadata. */
    interface Source {
        void read(ByteBuffer dst, long offset) throws IOException;
    }

    private final String what;
    private final long size;
    private final byte[] resident;
    private final RunList runs;
    private final long initialized;
    private final int clusterSize;
    private final int unitClusters;
    private final Source source;
    private final Object lock = new Object();
    private long cachedUnit = -1;
    private byte[] cachedBytes;

    private StreamContent(String what, long size, byte[] resident, RunList runs, long initialized, int clusterSize,
            int unitClusters, Source source) {
        this.what = what;
        this.size = size;
        this.resident = resident;
        this.runs = runs;
        this.initialized = initialized;
        this.clusterSize = clusterSize;
        this.unitClusters = unitClusters;
        this.source = source;
    }

    /**
     * The content of an attribute given as its extents (one when resident).
     *
     * @param clusters the volume's clusters, which every run must lie within
     */
    static StreamContent of(List<Attribute> extents, int clusterSize, long clusters, Source source, String what)
            throws CorruptFileSystemException {
        return of(extents, clusterSize, clusters, source, what, true);
    }

    /**
     * The bytes the first extent of an attribute maps, alone: what $MFT's extent in record 0 gives
     * before the extension records holding its other extents can be read.
     */
    static StreamContent firstExtent(Attribute first, int clusterSize, long clusters, Source source, String what)
            throws CorruptFileSystemException {
        return of(List.of(first), clusterSize, clusters, source, what, false);
    }

    private static StreamContent of(List<Attribute> extents, int clusterSize, long clusters, Source source,
            String what, boolean whole) throws CorruptFileSystemException {
        Attribute first = null;
        for (Attribute a : extents) {
            if (first == null || a.startVcn < first.startVcn) {
                first = a;
            }
        }
        if (first == null) {
            throw new CorruptFileSystemException(what + ": no extent", -1);
        }
        if (first.resident) {
            if (extents.size() != 1) {
                throw new CorruptFileSystemException(what + ": a resident value with other extents", first.at);
            }
            return new StreamContent(what, first.value.length, first.value, null, first.value.length, clusterSize, 0,
                    source);
        }
        RunList runs = RunList.of(extents, clusters, what);
        long span;
        try {
            span = Math.multiplyExact(runs.totalVcns(), (long) clusterSize);
        } catch (ArithmeticException e) {
            throw new CorruptFileSystemException(what + ": " + runs.totalVcns() + " clusters overflow", first.at);
        }
        // the runs' VCNs span the allocated size, which holds the data size (keramics ntfs.md "Non-resident")
        if (first.allocatedSize < first.dataSize || (whole && span != first.allocatedSize)) {
            throw new CorruptFileSystemException(what + ": runs cover " + span + " bytes, the attribute says "
                    + first.allocatedSize + " allocated for " + first.dataSize + " bytes", first.at);
        }
        long size = whole ? first.dataSize : Math.min(span, first.dataSize);
        long initialized = Math.min(size, first.initializedSize);
        int unit = 0;
        if (first.compressed()) {
            long bytes = (long) clusterSize << first.compressionUnit;
            if (bytes > MAX_UNIT) {
                throw new CorruptFileSystemException(what + ": compression unit of " + bytes + " bytes", first.at + 34);
            }
            unit = 1 << first.compressionUnit;
        }
        return new StreamContent(what, size, null, runs, initialized, clusterSize, unit, source);
    }

    /** An empty value: a file with no unnamed $DATA (a reparse point's). */
    static StreamContent empty() {
        return new StreamContent("empty", 0, new byte[0], null, 0, 512, 0, null);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= size) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        if (resident != null) {
            dst.put(resident, (int) position, n);
            return n;
        }
        long pos = position;
        long end = position + n;
        while (pos < end) {
            if (pos >= initialized) {
                zeros(dst, end - pos);
                pos = end;
            } else if (unitClusters != 0) {
                pos = readUnit(dst, pos, Math.min(end, initialized));
            } else {
                pos = readPlain(dst, pos, Math.min(end, initialized));
            }
        }
        return n;
    }

    /** Reads from {@code pos} to at most {@code end} within one run; returns where it stopped. */
    private long readPlain(ByteBuffer dst, long pos, long end) throws IOException {
        long v = pos / clusterSize;
        int i = runs.find(v);
        if (i < 0) {
            throw new CorruptFileSystemException(what + ": VCN " + v + " is in no run", -1);
        }
        long runEnd = (runs.vcn(i) + runs.length(i)) * clusterSize;
        long stop = Math.min(end, runEnd);
        int len = (int) (stop - pos);
        if (runs.lcn(i) < 0) {
            zeros(dst, len);
        } else {
            long dev = runs.lcn(i) * clusterSize + (pos - runs.vcn(i) * clusterSize);
            ByteBuffer slice = dst.slice(dst.position(), len);
            source.read(slice, dev);
            dst.position(dst.position() + len);
        }
        return stop;
    }

    /** Reads from {@code pos} to at most {@code end} within one compression unit. */
    private long readUnit(ByteBuffer dst, long pos, long end) throws IOException {
        long unitBytes = (long) unitClusters * clusterSize;
        long u = pos / unitBytes;
        long stop = Math.min(end, (u + 1) * unitBytes);
        long v0 = u * unitClusters;
        int allocated = 0;
        boolean holeSeen = false;
        for (long v = v0; v < v0 + unitClusters;) {
            int i = runs.find(v);
            long next = i < 0 ? v0 + unitClusters : Math.min(v0 + unitClusters, runs.vcn(i) + runs.length(i));
            if (i < 0 || runs.lcn(i) < 0) {
                holeSeen = true;
            } else {
                if (holeSeen) {
                    // allocated clusters after a hole within a unit: not the compressed layout
                    return readPlain(dst, pos, Math.min(stop, next * clusterSize));
                }
                allocated += (int) (next - v);
            }
            v = next;
        }
        if (allocated == unitClusters) {
            return readPlain(dst, pos, stop);
        }
        if (allocated == 0) {
            zeros(dst, stop - pos);
            return stop;
        }
        byte[] unit = unit(u, v0, allocated, (int) unitBytes);
        int from = (int) (pos - u * unitBytes);
        dst.put(unit, from, (int) (stop - pos));
        return stop;
    }

    private byte[] unit(long u, long v0, int allocated, int unitBytes) throws IOException {
        synchronized (lock) {
            if (cachedUnit == u) {
                return cachedBytes;
            }
        }
        byte[] in = new byte[allocated * clusterSize];
        long first = -1;
        for (int k = 0; k < allocated;) {
            int i = runs.find(v0 + k);
            long within = v0 + k - runs.vcn(i);
            int n = (int) Math.min(allocated - k, runs.length(i) - within);
            long dev = (runs.lcn(i) + within) * clusterSize;
            if (first < 0) {
                first = dev;
            }
            source.read(ByteBuffer.wrap(in, k * clusterSize, n * clusterSize), dev);
            k += n;
        }
        byte[] out = new byte[unitBytes];
        Lznt1.decompress(in, in.length, out, first);
        synchronized (lock) {
            cachedUnit = u;
            cachedBytes = out;
        }
        return out;
    }

    private static void zeros(ByteBuffer dst, long n) {
        while (n > 0) {
            int k = (int) Math.min(n, ZERO.length);
            dst.put(ZERO, 0, k);
            n -= k;
        }
    }

    /** The device offset of byte {@code pos} of the value, or -1 when it is resident, sparse or unmapped. */
    long deviceOffset(long pos) {
        if (runs == null || pos < 0) {
            return -1;
        }
        int i = runs.find(pos / clusterSize);
        if (i < 0 || runs.lcn(i) < 0) {
            return -1;
        }
        return runs.lcn(i) * clusterSize + (pos - runs.vcn(i) * clusterSize);
    }
}
