package org.vectorjce.fs.xfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * Symbolic link targets ("Symbolic Links"): a short target is kept in the inode's data fork (local
 * format); a longer one (at most {@code XFS_SYMLINK_MAXLEN}, 1024 bytes) in blocks mapped by the
 * fork's extents, each of which on v5 starts with a 56-byte "XSLM" header (the target's byte offset
 * and length in the block, a CRC32C at byte 12, the owner and the block's own address).
 */
final class Symlinks {
    static final int MAX_LEN = 1024;
    private static final long MAGIC = 0x58534c4dL; // "XSLM"

    private Symlinks() {
    }

    static String target(XfsFileSystem fs, Inode in) throws IOException {
        if (in.size < 1 || in.size > MAX_LEN) {
            throw new CorruptFileSystemException("XFS: symbolic link inode " + in.number + ": target of " + in.size
                    + " bytes is out of range (1 to " + MAX_LEN + ")", in.offset);
        }
        int len = (int) in.size;
        byte[] t = new byte[len];
        if (in.format == Inode.FMT_LOCAL) {
            if (len > in.forkSize) {
                throw new CorruptFileSystemException("XFS: symbolic link inode " + in.number + ": target of " + len
                        + " bytes passes its fork", in.offset);
            }
            System.arraycopy(in.raw, in.forkStart, t, 0, len);
        } else {
            remote(fs, in, t);
        }
        return new String(t, StandardCharsets.UTF_8).replace('\0', '_');
    }

    /**
     * The target from the link's extents: per {@code xfs_symlink_write_target}, each extent is one
     * buffer with (v5) one header at its start and a CRC over the whole extent.
     */
    private static void remote(XfsFileSystem fs, Inode in, byte[] t) throws IOException {
        Superblock sb = fs.sb;
        boolean v5 = sb.version == 5;
        int header = v5 ? 56 : 0;
        ExtentMap map = new ExtentMap(fs, in);
        int done = 0;
        long block = 0;
        while (done < t.length) {
            Extent e = map.find(block);
            String what = "XFS: symbolic link inode " + in.number + ": block " + block;
            if (e == null || e.startOff() != block || e.unwritten() || e.count() > (64 << 10) >> sb.blockLog) {
                throw new CorruptFileSystemException(what + " does not start an extent of at most 64 KiB",
                        in.offset);
            }
            long at = e.deviceOffset(sb, in.number);
            int len = (int) (e.count() << sb.blockLog);
            byte[] b = fs.cache.read(at, len, "XFS: symbolic link block");
            int n = Math.min(t.length - done, len - header);
            if (v5) {
                if (Be.u32(b, 0) != MAGIC) {
                    throw new CorruptFileSystemException(what + " has no \"XSLM\" magic", at);
                }
                if (!Be.crcOk(b, 0, len, 12)) {
                    throw new CorruptFileSystemException(what + ": CRC does not match", at);
                }
                if (Be.u32(b, 4) != done || Be.u32(b, 8) != n || Be.u64(b, 32) != in.number) {
                    throw new CorruptFileSystemException(what + ": header's offset, length or owner does not match",
                            at);
                }
            }
            System.arraycopy(b, header, t, done, n);
            done += n;
            block = e.end();
        }
    }
}
