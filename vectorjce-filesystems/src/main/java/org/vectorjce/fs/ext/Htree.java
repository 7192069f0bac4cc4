package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

/**
 * A name's lookup through a hashed folder's index (kernel Documentation/filesystems/ext4/
 * directory.rst, "Hash Tree Directories"; the kernel's dx_probe): the name's hash picks, at each of
 * at most 2 index levels (3 with {@code large_dir}), the last entry whose hash is not above it; the
 * leaf block it names is then scanned as any directory block.
 *
 * <p>This is a fast path only: it answers "found" or "not found here", and the caller scans the
 * whole folder on "not found" (a name continued into the next leaf by a hash collision, a name
 * stored in bytes that are not the UTF-8 of the asked name, a damaged index, a hash this reader
 * does not compute). So an index that is wrong can cost time, never a name. Every field of the
 * index is checked (counts against the block, levels, block numbers through the folder's map),
 * and each index block's dx tail is verified with metadata_csum.
 */
final class Htree {
    private static final int UNSIGNED_HASH = 0x2;

    private Htree() {
    }

    /** The entry called {@code name} found through the index, or {@code null}: then scan linearly. */
    static DirReader.Entry lookup(ExtFileSystem fs, ExtNode dir, String name) throws IOException {
        Superblock sb = fs.superblock();
        int bs = sb.blockSize;
        if (!dir.inode.has(Inode.INDEX_FL) || dir.inode.has(Inode.INLINE_DATA_FL)
                || dir.inode.has(Inode.CASEFOLD_FL) || bs >= 65536) {
            return null;
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 255) {
            return null;
        }
        long leaf;
        try (DirReader index = new DirReader(fs, dir)) {
            byte[] b = index.block(0);
            // dx_root: "." (rec_len 12), ".." (rec_len to the block's end), dx_root_info
            if (b == null || Le.u16(b, 4) != 12 || Le.u16(b, 16) != bs - 12 || Le.u8(b, 0x1D) != 8) {
                return null;
            }
            int version = Le.u8(b, 0x1C);
            if (version <= DirHash.TEA && (sb.flags & UNSIGNED_HASH) != 0) {
                version += 3;
            }
            int levels = Le.u8(b, 0x1E);
            if (levels > (sb.has(Superblock.INCOMPAT_LARGEDIR) ? 2 : 1)) {
                return null;
            }
            OptionalInt h = DirHash.hash(bytes, version, sb.hashSeed);
            if (h.isEmpty()) {
                return null;
            }
            int hash = h.getAsInt();
            int at = 0x20;
            for (int level = 0;; level++) {
                int limit = Le.u16(b, at);
                int count = Le.u16(b, at + 2);
                if (count == 0 || count > limit || at + 8L * limit > bs) {
                    return null;
                }
                // the last entry whose hash is not above the name's (entry 0 has none: below all)
                int lo = 1;
                int hi = count - 1;
                while (lo <= hi) {
                    int m = (lo + hi) >>> 1;
                    if (Integer.compareUnsigned(Le.i32(b, at + 8 * m), hash) > 0) {
                        hi = m - 1;
                    } else {
                        lo = m + 1;
                    }
                }
                long block = Le.u32(b, at + 8 * (lo - 1) + 4) & 0x0fffffff;
                if (level == levels) {
                    leaf = block;
                    break;
                }
                b = index.block(block);
                // a dx_node: an empty entry over the whole block, then limit and count
                if (b == null || Le.u32(b, 0) != 0 || Le.u16(b, 4) != bs) {
                    return null;
                }
                at = 8;
            }
        }
        try (DirReader r = new DirReader(fs, dir).only(leaf)) {
            for (DirReader.Entry e = r.nextEntry(); e != null; e = r.nextEntry()) {
                if (e.name().equals(name)) {
                    return e;
                }
            }
        }
        return null;
    }
}
