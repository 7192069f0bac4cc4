package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Checks;
import org.vectorjce.fs.spi.Content;

/**
 * The bytes of one exFAT stream (a file, a folder, the allocation bitmap, the up-case table): its
 * clusters either contiguous from the first (the Stream Extension's NoFatChain flag, specification
 * section 7.6.2) or a FAT chain (section 4.1), and bytes from ValidDataLength to DataLength read as
 * zeros (section 7.6.5).
 *
 * <p>Contiguous streams are read with one device read per call. A FAT chain is walked from the
 * last position a read reached (each read walks a private copy and leaves one behind, so many threads may read at once),
 * and clusters that follow each other on the disk are read together. Every walk is bounded by the
 * clusters the stream's size needs; a chain that ends early, leaves the heap or loops (Brent's
 * cycle check, constant memory, as the walk runs) is a {@link CorruptFileSystemException} naming the
 * stream. A loop that closes only after the stream's last cluster is never walked, so is harmless.
 */
final class ClusterContent implements Content {
    private final Device device;
    private final ExfatBootSector boot;
    private final ExfatFat fat;
    private final long first;
    private final boolean contiguous;
    private final long size;
    private final long valid;
    private final long clusters;
    private final String what;
    private volatile ChainWalk cached;

    /**
     * @param what the stream, for messages ({@code exFAT: file 'a.txt'})
     * @param entryOffset the byte offset of the entry that describes the stream, for messages
     */
    ClusterContent(Device device, ExfatBootSector boot, ExfatFat fat, long first, boolean contiguous, long size,
            long valid, String what, long entryOffset) throws CorruptFileSystemException {
        this.device = device;
        this.boot = boot;
        this.fat = fat;
        this.first = first;
        this.contiguous = contiguous;
        this.size = size;
        this.valid = valid;
        this.what = what;
        long heapBytes = boot.clusterCount << boot.clusterShift;
        if (size < 0 || size > heapBytes) {
            throw new CorruptFileSystemException(what + ": DataLength " + Long.toUnsignedString(size)
                    + " passes the " + heapBytes + "-byte cluster heap", entryOffset);
        }
        if (valid < 0 || valid > size) {
            throw new CorruptFileSystemException(what + ": ValidDataLength " + Long.toUnsignedString(valid)
                    + " passes DataLength " + size, entryOffset);
        }
        this.clusters = (size + boot.clusterSize - 1) >> boot.clusterShift;
        if (clusters > 0 && !boot.validCluster(first)) {
            throw new CorruptFileSystemException(what + ": FirstCluster " + first + " is outside the heap's clusters 2-"
                    + (boot.clusterCount + 1), entryOffset);
        }
        if (clusters > 0 && contiguous && first + clusters - 1 > boot.clusterCount + 1) {
            throw new CorruptFileSystemException(what + ": " + clusters + " contiguous clusters from " + first
                    + " pass the heap's last cluster " + (boot.clusterCount + 1), entryOffset);
        }
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
        long end = position + n;
        long diskEnd = Math.min(end, valid);
        if (position < diskEnd) {
            readDisk(dst, position, (int) (diskEnd - position));
        }
        // 7.6.5: the bytes from ValidDataLength on are undefined on the disk and read as zeros
        int zeros = (int) (end - Math.max(position, diskEnd));
        while (zeros > 0) {
            int z = Math.min(zeros, 8192);
            dst.put(new byte[z]);
            zeros -= z;
        }
        return n;
    }

    /** The device offset of byte {@code position} of the stream ({@code < size}). */
    long deviceOffset(long position) throws IOException {
        long index = position >> boot.clusterShift;
        long inCluster = position & (boot.clusterSize - 1);
        if (contiguous) {
            return boot.clusterOffset(first + index) + inCluster;
        }
        ChainWalk w = seek(index);
        cached = w.copy();
        return boot.clusterOffset(w.cluster) + inCluster;
    }

    private void readDisk(ByteBuffer dst, long pos, int len) throws IOException {
        if (contiguous) {
            readRun(dst, boot.clusterOffset(first) + pos, len);
            return;
        }
        ChainWalk w = seek(pos >> boot.clusterShift);
        while (len > 0) {
            long runCluster = w.cluster;
            long runIndex = w.index;
            int in = (int) (pos - (runIndex << boot.clusterShift));
            long runBytes = Math.min(len, boot.clusterSize - in);
            while (runBytes < len) {
                w.advance(clusters);
                if (w.cluster != runCluster + (w.index - runIndex)) {
                    break; // the next cluster is elsewhere: read this run, then start the next there
                }
                runBytes += Math.min(len - runBytes, boot.clusterSize);
            }
            readRun(dst, boot.clusterOffset(runCluster) + in, (int) runBytes);
            pos += runBytes;
            len -= (int) runBytes;
        }
        cached = w.copy();
    }

    private void readRun(ByteBuffer dst, long offset, int n) throws IOException {
        Checks.within(offset, n, device.size(), what + ": clusters");
        ByteBuffer part = dst.slice(dst.position(), n);
        device.readFully(part, offset);
        dst.position(dst.position() + n);
    }

    /** A walk at cluster {@code index}, from the cached position when it is not past it. */
    private ChainWalk seek(long index) throws IOException {
        ChainWalk c = cached;
        ChainWalk w = c != null && c.index <= index ? c.copy() : new ChainWalk(boot, fat, first, what);
        while (w.index < index) {
            w.advance(clusters);
        }
        return w;
    }

    /**
     * The clusters of the chain from {@code first} to its end mark, at most {@code limit} (more is a
     * {@link CorruptFileSystemException}): for the root folder, whose size no entry gives (section
     * 7.4: the root has no File entry).
     */
    static long chainLength(ExfatBootSector boot, ExfatFat fat, long first, long limit, String what)
            throws IOException {
        ChainWalk w = new ChainWalk(boot, fat, first, what);
        while (w.advanceToEnd()) {
            if (w.index + 1 > limit) {
                throw new CorruptFileSystemException(what + ": its cluster chain passes " + limit + " clusters",
                        boot.fatOffset + w.cluster * 4);
            }
        }
        return w.index + 1;
    }
}
