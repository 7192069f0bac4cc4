package org.vectorjce.fs.ext;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * The block group descriptors (kernel Documentation/filesystems/ext4/group_descr.rst), read one at
 * a time through the metadata cache when an inode of their group is wanted, never all at once: a
 * filesystem may have millions of groups.
 *
 * <p>Where the descriptor table is (kernel {@code descriptor_loc}): without {@code meta_bg}, in the
 * blocks after the superblock; with it, descriptor block {@code m >= s_first_meta_bg} is in the first
 * group of meta-group {@code m} (each meta-group is the groups one descriptor block describes), after
 * that group's superblock backup when it has one. {@code flex_bg} only means that a group's inode
 * table may live in another group: the descriptor's own location is used, checked against the
 * filesystem and the device.
 *
 * <p>Checksums: with {@code metadata_csum}, the low 16 bits of crc32c(seed, group number, descriptor
 * with its checksum taken as zero); with {@code gdt_csum}, crc16 over the UUID, the group number and the
 * descriptor without its checksum field. A mismatch is a {@link CorruptFileSystemException}.
 */
final class GroupDescriptors {
    private static final int CHECKSUM_AT = 0x1E;

    private final Superblock sb;
    private final BlockCache cache;
    private final long deviceSize;

    GroupDescriptors(Superblock sb, BlockCache cache, long deviceSize) {
        this.sb = sb;
        this.cache = cache;
        this.deviceSize = deviceSize;
    }

    /** The byte offset of group {@code g}'s descriptor. */
    long offset(long g) throws CorruptFileSystemException {
        if (g < 0 || g >= sb.groupCount) {
            throw new CorruptFileSystemException("ext: block group " + g + " is out of range (0 to "
                    + (sb.groupCount - 1) + ")", -1);
        }
        long perBlock = sb.blockSize / sb.descSize;
        long nr = g / perBlock;
        long block;
        // the logical block of the superblock: 1 with 1 KiB blocks, else 0
        long superBlock = Superblock.OFFSET / sb.blockSize;
        if (!sb.has(Superblock.INCOMPAT_META_BG) || nr < sb.firstMetaBg) {
            block = superBlock + nr + 1;
        } else {
            long bg = perBlock * nr;
            long hasSuper = sb.groupHasSuper(bg) ? 1 : 0;
            if (sb.blockSize == 1024 && nr == 0 && sb.firstDataBlock == 0) {
                hasSuper++;
            }
            block = sb.groupFirstBlock(bg) + hasSuper;
        }
        if (block >= sb.blocksCount) {
            throw new CorruptFileSystemException("ext: the descriptor block of group " + g + " is block " + block
                    + ", past the filesystem's " + sb.blocksCount + " blocks", Superblock.OFFSET);
        }
        long at = block * sb.blockSize + (g % perBlock) * sb.descSize;
        if (at > deviceSize - sb.descSize) {
            throw new CorruptFileSystemException("ext: group descriptor " + g + " passes the end of the "
                    + deviceSize + "-byte device", at);
        }
        return at;
    }

    /** The first block of group {@code g}'s inode table, checked: the table lies within the filesystem and device. */
    long inodeTable(long g) throws IOException {
        long at = offset(g);
        byte[] d = cache.read(at, sb.descSize, "ext: group descriptor " + g);
        verify(g, d, at);
        long table = Le.u32(d, 0x8) | (sb.descSize >= 64 ? Le.u32(d, 0x28) << 32 : 0);
        long blocks = (sb.inodesPerGroup * sb.inodeSize + sb.blockSize - 1) / sb.blockSize;
        if (table < sb.firstDataBlock || table > sb.blocksCount - blocks
                || table > (deviceSize >> sb.logBlockSize) - blocks) {
            throw new CorruptFileSystemException("ext: group descriptor " + g + ": inode table at block " + table
                    + " (" + blocks + " blocks) passes the filesystem's " + sb.blocksCount + " blocks or the "
                    + deviceSize + "-byte device", at);
        }
        return table;
    }

    private void verify(long g, byte[] d, long at) throws CorruptFileSystemException {
        int stored = Le.u16(d, CHECKSUM_AT);
        int computed;
        if (sb.hasMetadataCsum()) {
            int c = Crc.crc32c(sb.csumSeed, (int) g);
            c = Crc.crc32c(c, d, 0, CHECKSUM_AT);
            c = Crc.crc32cZeros(c, 2);
            c = Crc.crc32c(c, d, CHECKSUM_AT + 2, sb.descSize - CHECKSUM_AT - 2);
            computed = c & 0xffff;
        } else if (sb.hasGdtCsum()) {
            int c = Crc.crc16(~0, sb.uuid, 0, 16);
            byte[] group = new byte[4];
            Le.put32(group, 0, (int) g);
            c = Crc.crc16(c, group, 0, 4);
            c = Crc.crc16(c, d, 0, CHECKSUM_AT);
            if (sb.has(Superblock.INCOMPAT_64BIT) && sb.descSize > CHECKSUM_AT + 2) {
                c = Crc.crc16(c, d, CHECKSUM_AT + 2, sb.descSize - CHECKSUM_AT - 2);
            }
            computed = c & 0xffff;
        } else {
            return;
        }
        if (stored != computed) {
            throw new CorruptFileSystemException(String.format(
                    "ext: group descriptor %d: checksum 0x%04x does not match the computed 0x%04x", g, stored,
                    computed), at);
        }
    }
}
