/**
 * The XFS driver, read-only: {@link org.vectorjce.fs.xfs.XfsDriver} probes and opens a filesystem as
 * an {@link org.vectorjce.fs.spi.DiskFs}.
 *
 * <p>One file per on-disk concern, each citing the structure it reads (the kernel's XFS "Algorithms
 * &amp; Data Structures", Documentation/filesystems/xfs/, and libxfs/xfs_format.h, xfs_da_format.h;
 * keramics {@code docs/formats/src/xfs.md}): the superblock and the AG geometry that turns inode and
 * block numbers into offsets ({@code Superblock}), inodes ({@code Inode}), extent records
 * ({@code Extent}) found in the inode or through the extent B+tree ({@code ExtentMap},
 * {@code BmbtBlocks}), file bytes ({@code FileContent}), directories in every form
 * ({@code DirReader}) and their hash index for lookup ({@code DirHash}), symbolic links
 * ({@code Symlinks}), and the filesystem itself ({@code XfsFileSystem}). Version 5 (CRC)
 * filesystems are read with every CRC32C checked (superblock, inodes, bmbt blocks, directory data,
 * leaf and node blocks, remote symlink blocks); version 4 with v2 directories too.
 *
 * <p>Every field read from the disk is checked before use; every walk ends: the B+tree's levels
 * must fall by one each step (at most 9), extents are found by strictly increasing file block,
 * directory entries advance by at least 8 bytes. Memory is bounded: a listing holds one directory
 * block, metadata goes through a 4 MiB {@link org.vectorjce.fs.spi.BlockCache}, file data is read
 * from the device into the caller's buffer.
 *
 * <p>Not read: the log (a filesystem not cleanly unmounted is read as it is on disk), extended
 * attributes, the realtime device (realtime files are refused), the directories' free-index
 * blocks, the free-space and inode B+trees (free space is the superblock's lazily kept counter).
 */
package org.vectorjce.fs.xfs;
