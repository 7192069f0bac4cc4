package org.vectorjce.fs;

/**
 * What {@code fsstat} shows of a filesystem.
 *
 * @param type {@code FAT12}, {@code FAT16}, {@code FAT32}, {@code exFAT} or {@code NTFS}
 * @param label the volume label, or {@code ""} where there is none
 * @param serial the volume serial number or UUID as the filesystem's own tools print it
 *     ({@code 1234-ABCD} for FAT and exFAT, 16 hex digits for NTFS)
 * @param clusterSize bytes of one allocation unit (cluster or block)
 * @param totalBytes bytes of the filesystem's data area
 * @param freeBytes bytes of it not allocated, or -1 where that is not known without a full scan
 */
public record FsInfo(String type, String label, String serial, int clusterSize, long totalBytes, long freeBytes) {
}
