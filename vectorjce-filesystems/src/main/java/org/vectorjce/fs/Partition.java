package org.vectorjce.fs;

/**
 * One partition of a disk, as {@code mmls} shows it: a window of the device it was read from.
 *
 * @param number its number in {@link Partitions#read}'s list, from 1 (what {@code --partition N} takes)
 * @param scheme {@code MBR}, {@code GPT} or {@code none} (the whole device, no partition table)
 * @param type the MBR type byte as {@code 0x07}, or the GPT type GUID in lower case
 * @param description what the type is ({@code NTFS/exFAT/HPFS}, {@code Microsoft basic data},
 *     {@code Linux filesystem}, ...), or {@code ""} when unknown
 * @param name the GPT partition name, or {@code ""}
 * @param offset its first byte on the device
 * @param length its bytes
 */
public record Partition(int number, String scheme, String type, String description, String name, long offset,
        long length) {
}
