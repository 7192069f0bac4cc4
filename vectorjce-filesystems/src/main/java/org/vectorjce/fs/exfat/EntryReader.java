package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The 32-byte entries of one exFAT folder (specification section 6, "Directory Structure"), read
 * through the folder's {@link ClusterContent} one 4 KiB block at a time, so that a folder of any
 * size costs one block of memory. Not for many threads: each listing has its own.
 */
final class EntryReader {
    static final int ENTRY = 32;
    private static final int BLOCK = 4096;

    private final ClusterContent content;
    private final String what;
    private final byte[] block;
    private long blockStart = -1;
    private int blockLength;

    EntryReader(ClusterContent content, String what) {
        this.content = content;
        this.what = what;
        // a multiple of 32, so that an entry never straddles two blocks
        this.block = new byte[(int) Math.max(ENTRY, Math.min(BLOCK, content.size()) & ~(ENTRY - 1))];
    }

    /** Bytes of the folder; entries lie at multiples of 32 below it. */
    long size() {
        return content.size();
    }

    /** The entry type byte at folder position {@code pos} (a multiple of 32, below {@link #size()} - 31). */
    int type(long pos) throws IOException {
        load(pos);
        return block[(int) (pos - blockStart)] & 0xff;
    }

    /** Copies the entry at {@code pos} into {@code dst[at, at + 32)}. */
    void copy(long pos, byte[] dst, int at) throws IOException {
        load(pos);
        System.arraycopy(block, (int) (pos - blockStart), dst, at, ENTRY);
    }

    /** The device byte offset of the entry at {@code pos}, for messages and keys. */
    long deviceOffset(long pos) throws IOException {
        return content.deviceOffset(pos);
    }

    private void load(long pos) throws IOException {
        if (blockStart >= 0 && pos >= blockStart && pos + ENTRY <= blockStart + blockLength) {
            return;
        }
        long start = pos - pos % block.length;
        int length = (int) Math.min(block.length, content.size() - start);
        ByteBuffer b = ByteBuffer.wrap(block, 0, length);
        while (b.hasRemaining()) {
            if (content.read(b, start + b.position()) <= 0) {
                throw new CorruptFileSystemException(what + ": ends early at byte " + (start + b.position()) + " of it",
                        -1);
            }
        }
        blockStart = start;
        blockLength = length;
    }
}
