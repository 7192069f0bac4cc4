/**
 * The NTFS 3.x driver, read-only: {@link org.vectorjce.fs.ntfs.NtfsDriver} probes and opens a
 * volume as an {@link org.vectorjce.fs.spi.DiskFs}.
 *
 * <p>One file per on-disk concern, each citing the layout it reads (keramics
 * {@code docs/formats/src/ntfs.md}, The Sleuth Kit's {@code tsk/fs/ntfs.c}, MS-FSCC for reparse
 * data, MS-XCA for LZNT1): the boot sector ({@code BootSector}), the multi-sector fix-ups shared by
 * MFT records and index blocks ({@code Fixups}), MFT records and their attribute chain
 * ({@code MftRecord}, {@code Attribute}), a file's attributes across extension records through
 * $ATTRIBUTE_LIST ({@code MftFile}), run lists ({@code RunList}), an attribute's bytes with sparse
 * runs, initialized size and LZNT1 compression units ({@code StreamContent}, {@code Lznt1}), the
 * $I30 B+ tree ({@code Index}) compared through $UpCase ({@code UpCase}), link targets
 * ({@code Reparse}) and the volume itself ({@code NtfsFileSystem}).
 *
 * <p>Every length, offset, count and cluster number read from the volume is checked before use;
 * every walk (attributes, runs, attribute lists, index entries and blocks, LZNT1 tokens) advances
 * or ends in a {@link org.vectorjce.fs.CorruptFileSystemException} naming the structure. Memory
 * is bounded: a listing holds the index path (at most 32 blocks), a read holds at most one
 * compression unit, metadata goes through a 4 MiB {@link org.vectorjce.fs.spi.BlockCache}.
 *
 * <p>Not read: $LogFile (a volume not cleanly unmounted is read as it is on disk), encrypted
 * ($EFS) files' plaintext (their bytes are the ciphertext), WOF/"CompactOS" compressed files
 * (read as their reparse point's empty or sparse $DATA), the index $BITMAP (the tree is walked
 * from its root instead).
 */
package org.vectorjce.fs.ntfs;
