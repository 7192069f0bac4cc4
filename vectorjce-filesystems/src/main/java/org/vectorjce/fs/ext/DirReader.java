package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * A folder's entries, one directory block at a time (kernel Documentation/filesystems/ext4/
 * directory.rst): each block is a chain of {@code ext4_dir_entry_2} records (inode, rec_len,
 * name_len, file type with the {@code filetype} feature, name) that cover it exactly.
 *
 * <p>Hashed (htree) folders are read the same way, every block in order: the root block's
 * {@code ".."} record and each interior node's empty record (inode 0, rec_len the whole block)
 * cover the index data, so a linear reader sees them as a {@code ".."} and an unused entry.
 * {@link ExtFileSystem#lookup} first follows the index by the name's hash ({@link Htree}) and
 * scans linearly only when that does not find the name.
 *
 * <p>Inline folders ({@code inline_data}): {@code i_block} holds the parent's inode number, then
 * 56 bytes of entries; the {@code system.data} extended attribute, when present, more entries. They
 * have no checksum tail (the inode's checksum covers them).
 *
 * <p>Checks: rec_len at least 8, a multiple of 4, within the block, and at least 8 + name_len;
 * inode numbers within {@code s_inodes_count}. With metadata_csum each leaf block must end in the
 * 12-byte checksum tail ("Directory Entry Checksums"), and each htree node in its dx tail, whose
 * crc32c (seeded by the folder's inode) is verified. A block that is a hole (zeros) is skipped, as
 * the kernel's readdir does. Names are UTF-8 (an undecodable byte is U+FFFD), {@code '/'} and NUL
 * become {@code '_'}; {@code "."} and {@code ".."} are never returned, wherever they appear.
 */
final class DirReader implements NodeStream {
    /** One entry: the inode number and the name as stored and as returned. */
    record Entry(long inode, String name) {
    }

    private final ExtFileSystem fs;
    private final Superblock sb;
    private final ExtNode dir;
    private final Device device;
    private final BlockMapper mapper;
    private long blocks;
    private final byte[][] inlineParts;
    private byte[] buf;
    private int len;
    private long bufAt;
    private int pos;
    private long nextBlock;
    private int nextPart;

    DirReader(ExtFileSystem fs, ExtNode dir) throws IOException {
        this.fs = fs;
        this.sb = fs.superblock();
        this.dir = dir;
        this.device = fs.device();
        Inode in = dir.inode;
        if (in.has(Inode.INLINE_DATA_FL)) {
            byte[] data = in.systemData();
            byte[] first = new byte[56];
            System.arraycopy(in.iBlock, 4, first, 0, 56);
            inlineParts = data == null || data.length == 0 ? new byte[][] {first} : new byte[][] {first, data};
            mapper = null;
            blocks = 0;
        } else {
            inlineParts = null;
            mapper = fs.mapper(in);
            // logical block numbers are 32-bit: no folder has more blocks
            blocks = Math.min((in.size + sb.blockSize - 1) / sb.blockSize, ExtentMap.END);
            buf = new byte[sb.blockSize];
        }
        len = 0;
        pos = 0;
    }

    /** Limits this reader to the one block {@code lb} (an htree leaf found by hash); returns this. */
    DirReader only(long lb) {
        if (inlineParts == null) {
            nextBlock = lb;
            blocks = Math.min(blocks, lb + 1);
        }
        return this;
    }

    /**
     * Block {@code lb} of a block-based folder, read and (with metadata_csum) verified, for an htree
     * walk; {@code null} for a hole, an inline folder or a block past the end. Valid until the next call.
     */
    byte[] block(long lb) throws IOException {
        if (inlineParts != null || lb < 0 || lb >= blocks) {
            return null;
        }
        BlockMapper.Run run = mapper.map(lb);
        if (run.zeros()) {
            return null;
        }
        bufAt = run.physical() * sb.blockSize;
        device.readFully(ByteBuffer.wrap(buf), bufAt);
        len = 0;
        pos = 0;
        if (sb.hasMetadataCsum()) {
            verify(lb);
        }
        len = 0;
        return buf;
    }

    @Override
    public Node next() throws IOException {
        Entry e = nextEntry();
        return e == null ? null : fs.child(dir, e);
    }

    /** The next entry, without reading its inode; {@code null} at the end. */
    Entry nextEntry() throws IOException {
        while (true) {
            while (pos < len) {
                Entry e = parseOne();
                if (e != null) {
                    return e;
                }
            }
            if (!load()) {
                return null;
            }
        }
    }

    /** Reads the next block (or inline part) into {@code buf}; false at the end. */
    private boolean load() throws IOException {
        pos = 0;
        if (inlineParts != null) {
            if (nextPart >= inlineParts.length) {
                return false;
            }
            buf = inlineParts[nextPart];
            len = buf.length;
            bufAt = dir.inode.offset + (nextPart == 0 ? 0x2C : 0);
            nextPart++;
            return true;
        }
        while (nextBlock < blocks) {
            long lb = nextBlock++;
            BlockMapper.Run run = mapper.map(lb);
            if (run.zeros()) {
                // a hole: skipped whole, however long (a hostile size must not cost a map per block)
                nextBlock = Math.max(nextBlock, Math.min(blocks, run.logical() + run.length()));
                continue;
            }
            bufAt = run.physical() * sb.blockSize;
            device.readFully(ByteBuffer.wrap(buf), bufAt);
            if (allZero(buf)) {
                continue;
            }
            len = sb.blockSize;
            if (sb.hasMetadataCsum()) {
                verify(lb);
            }
            return true;
        }
        len = 0;
        return false;
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** rec_len as stored: 64 KiB blocks keep bits 16-17 in the low two bits (kernel ext4_rec_len_from_disk). */
    private int recLen(int at) {
        int v = Le.u16(buf, at);
        if (sb.blockSize < 65536) {
            return v;
        }
        if (v == 65535 || v == 0) {
            return sb.blockSize;
        }
        return (v & 65532) | ((v & 3) << 16);
    }

    private Entry parseOne() throws CorruptFileSystemException {
        int at = pos;
        if (at > len - 8) {
            throw bad("entry header passes the block's end", at);
        }
        long ino = Le.u32(buf, at);
        int rec = recLen(at + 4);
        int nameLen = sb.has(Superblock.INCOMPAT_FILETYPE) ? Le.u8(buf, at + 6) : Le.u16(buf, at + 6) & 0xff;
        if (rec < 8 || (rec & 3) != 0 || rec > len - at || 8 + nameLen > rec) {
            throw bad("rec_len " + rec + " (name_len " + nameLen + ") is out of range for the " + (len - at)
                    + " bytes left", at);
        }
        pos = at + rec;
        if (ino == 0 || nameLen == 0) {
            return null;
        }
        if (ino > sb.inodesCount) {
            throw bad("inode " + ino + " is past s_inodes_count " + sb.inodesCount, at);
        }
        if (nameLen == 1 && buf[at + 8] == '.' || nameLen == 2 && buf[at + 8] == '.' && buf[at + 9] == '.') {
            return null;
        }
        return new Entry(ino, name(buf, at + 8, nameLen));
    }

    /** A stored name as returned: UTF-8, undecodable bytes U+FFFD, '/' and NUL as '_'. */
    static String name(byte[] b, int at, int n) {
        // String's UTF-8 decoding replaces malformed input with U+FFFD
        return new String(b, at, n, StandardCharsets.UTF_8).replace('/', '_').replace('\0', '_');
    }

    /** Verifies a block's checksum (metadata_csum): a leaf's tail, or an htree node's dx tail. */
    private void verify(long lb) throws CorruptFileSystemException {
        int bs = sb.blockSize;
        boolean htree = dir.inode.has(Inode.INDEX_FL);
        if (htree && lb == 0 && Le.u32(buf, 0) != 0 && recLen(4) == 12 && recLen(16) == bs - 12) {
            // dx_root: "." (12 bytes), ".." (to the end), dx_root_info (8 bytes, info_length), limit, count
            verifyDx(0x18 + Le.u8(buf, 0x1D), lb);
            return;
        }
        if (htree && Le.u32(buf, 0) == 0 && recLen(4) == bs) {
            verifyDx(8, lb);
            return;
        }
        int t = bs - 12;
        if (Le.u32(buf, t) != 0 || Le.u16(buf, t + 4) != 12 || buf[t + 6] != 0 || (buf[t + 7] & 0xff) != 0xDE) {
            throw bad("block " + lb + " has no checksum tail (metadata_csum)", 0);
        }
        int stored = Le.i32(buf, t + 8);
        int computed = Crc.crc32c(dir.inode.csumSeed, buf, 0, t);
        if (stored != computed) {
            throw bad(String.format("block %d: checksum 0x%08x does not match the computed 0x%08x", lb, stored,
                    computed), 0);
        }
        len = t;
    }

    private void verifyDx(int countOffset, long lb) throws CorruptFileSystemException {
        int bs = sb.blockSize;
        if (countOffset > bs - 4) {
            throw bad("htree block " + lb + ": dx header passes the block", 0);
        }
        int limit = Le.u16(buf, countOffset);
        int count = Le.u16(buf, countOffset + 2);
        int tail = countOffset + 8 * limit;
        if (count > limit || tail > bs - 8) {
            throw bad("htree block " + lb + ": count " + count + ", limit " + limit + " leave no room for the dx tail",
                    countOffset);
        }
        int c = Crc.crc32c(dir.inode.csumSeed, buf, 0, countOffset + 8 * count);
        c = Crc.crc32c(c, buf, tail, 4);
        c = Crc.crc32cZeros(c, 4);
        int stored = Le.i32(buf, tail + 4);
        if (stored != c) {
            throw bad(String.format("htree block %d: checksum 0x%08x does not match the computed 0x%08x", lb, stored,
                    c), tail);
        }
    }

    private CorruptFileSystemException bad(String what, int at) {
        return new CorruptFileSystemException("ext: directory inode " + dir.inode.number + ": " + what, bufAt + at);
    }
}
