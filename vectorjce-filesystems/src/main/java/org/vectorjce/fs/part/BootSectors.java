package org.vectorjce.fs.part;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Whether sector 0 is a filesystem's boot sector rather than an MBR. A FAT, NTFS or exFAT boot
 * sector ends with the same {@code 55 AA} as an MBR (Microsoft's FAT specification, "Boot Sector
 * and BPB", offset 510), so the signature alone does not say that a device is partitioned; an
 * unpartitioned FAT or NTFS image must be read as one filesystem from byte 0.
 *
 * <p>The checks (all on fields an MBR holds boot code in):
 * <ul>
 * <li>exFAT: the file system name {@code "EXFAT   "} at offset 3 (exFAT specification 3.1.2);
 * <li>NTFS: the OEM ID {@code "NTFS    "} at offset 3;
 * <li>FAT: the jump instruction {@code EB ?? 90} or {@code E9 ?? ??} at offset 0 (FAT specification,
 *     BS_jmpBoot) and a BIOS parameter block whose fields are each in their allowed set: bytes per
 *     sector 512 to 4096 and a power of two (BPB_BytsPerSec), sectors per cluster a power of two to
 *     128 (BPB_SecPerClus), reserved sectors not 0 (BPB_RsvdSecCnt), 1 to 4 FATs (BPB_NumFATs), and
 *     the media byte 0xF0 or 0xF8 to 0xFF (BPB_Media).
 * </ul>
 * An MBR's boot code starting with those exact bytes in all of those places is far less likely
 * than a filesystem boot sector; the Linux kernel and The Sleuth Kit make the same call from the
 * BPB and the OEM name.
 */
final class BootSectors {
    private BootSectors() {
    }

    private static final byte[] EXFAT = "EXFAT   ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NTFS = "NTFS    ".getBytes(StandardCharsets.US_ASCII);

    /** Whether {@code sector} (at least 512 bytes) is a FAT, NTFS or exFAT boot sector. */
    static boolean isFilesystem(byte[] sector) {
        if (Arrays.equals(sector, 3, 11, EXFAT, 0, 8) || Arrays.equals(sector, 3, 11, NTFS, 0, 8)) {
            return true;
        }
        int jump = sector[0] & 0xff;
        if (!(jump == 0xeb && (sector[2] & 0xff) == 0x90) && jump != 0xe9) {
            return false;
        }
        int bytesPerSector = Sectors.u16(sector, 11);
        int sectorsPerCluster = sector[13] & 0xff;
        int reserved = Sectors.u16(sector, 14);
        int fats = sector[16] & 0xff;
        int media = sector[21] & 0xff;
        return bytesPerSector >= 512 && bytesPerSector <= 4096 && Integer.bitCount(bytesPerSector) == 1
                && sectorsPerCluster != 0 && Integer.bitCount(sectorsPerCluster) == 1
                && reserved != 0 && fats >= 1 && fats <= 4
                && (media == 0xf0 || media >= 0xf8);
    }
}
