package org.vectorjce.fs.part;

import java.util.Map;

/**
 * What a partition's type says, in words: the MBR type byte's common values (the ones a Windows,
 * Linux or EFI disk carries) and the GPT type GUIDs of the same systems. An unknown type has the
 * description {@code ""}; the type itself is always kept in {@link org.vectorjce.fs.Partition#type()}.
 *
 * <p>The GPT names are the ones {@code sgdisk -i} prints (gdisk's parttypes table), so that a user
 * who knows one tool reads the same words here and a test can compare them; the GUIDs are those of
 * the UEFI specification (EFI system) and of each system's own documentation.
 */
final class PartitionTypes {
    private PartitionTypes() {
    }

    private static final Map<Integer, String> MBR = Map.ofEntries(
            Map.entry(0x01, "FAT12"),
            Map.entry(0x04, "FAT16"),
            Map.entry(0x05, "Extended"),
            Map.entry(0x06, "FAT16"),
            Map.entry(0x07, "NTFS/exFAT/HPFS"),
            Map.entry(0x0b, "FAT32"),
            Map.entry(0x0c, "FAT32 (LBA)"),
            Map.entry(0x0e, "FAT16 (LBA)"),
            Map.entry(0x0f, "Extended (LBA)"),
            Map.entry(0x11, "Hidden FAT12"),
            Map.entry(0x14, "Hidden FAT16"),
            Map.entry(0x16, "Hidden FAT16"),
            Map.entry(0x17, "Hidden NTFS/exFAT/HPFS"),
            Map.entry(0x1b, "Hidden FAT32"),
            Map.entry(0x1c, "Hidden FAT32 (LBA)"),
            Map.entry(0x1e, "Hidden FAT16 (LBA)"),
            Map.entry(0x27, "Windows RE"),
            Map.entry(0x42, "Windows LDM"),
            Map.entry(0x82, "Linux swap"),
            Map.entry(0x83, "Linux"),
            Map.entry(0x85, "Linux extended"),
            Map.entry(0x8e, "Linux LVM"),
            Map.entry(0xa5, "FreeBSD"),
            Map.entry(0xa6, "OpenBSD"),
            Map.entry(0xa9, "NetBSD"),
            Map.entry(0xaf, "Apple HFS/HFS+"),
            Map.entry(0xee, "GPT protective"),
            Map.entry(0xef, "EFI System"),
            Map.entry(0xfd, "Linux RAID autodetect"));

    /** Keys in lower case, as {@link Guids#format} writes them. */
    private static final Map<String, String> GPT = Map.ofEntries(
            Map.entry("c12a7328-f81f-11d2-ba4b-00a0c93ec93b", "EFI system partition"),
            Map.entry("21686148-6449-6e6f-744e-656564454649", "BIOS boot partition"),
            Map.entry("ebd0a0a2-b9e5-4433-87c0-68b6b72699c7", "Microsoft basic data"),
            Map.entry("e3c9e316-0b5c-4db8-817d-f92df00215ae", "Microsoft reserved"),
            Map.entry("de94bba4-06d1-4d40-a16a-bfd50179d6ac", "Windows RE"),
            Map.entry("af9b60a0-1431-4f62-bc68-3311714a69ad", "Windows LDM data"),
            Map.entry("5808c8aa-7e8f-42e0-85d2-e1e90434cfb3", "Windows LDM metadata"),
            Map.entry("0fc63daf-8483-4772-8e79-3d69d8477de4", "Linux filesystem"),
            Map.entry("0657fd6d-a4ab-43c4-84e5-0933c84b4f4f", "Linux swap"),
            Map.entry("e6d6d379-f507-44c2-a23c-238f2a3df928", "Linux LVM"),
            Map.entry("933ac7e1-2eb4-4f13-b844-0e14e2aef915", "Linux /home"),
            Map.entry("44479540-f297-41b2-9af7-d131d5f0458a", "Linux x86 root (/)"),
            Map.entry("4f68bce3-e8cd-4db1-96e7-fbcaf984b709", "Linux x86-64 root (/)"),
            Map.entry("b921b045-1df0-41c3-af44-4c6f280d3fae", "Linux ARM64 root (/)"),
            Map.entry("7ffec5c9-2d00-49b7-8941-3ea10a5586b7", "Linux dm-crypt"),
            Map.entry("ca7d7ccb-63ed-4c53-861c-1742536059cc", "Linux LUKS"),
            Map.entry("a19d880f-05fc-4d3b-a006-743f0f84911e", "Linux RAID"),
            Map.entry("bc13c2ff-59e6-4262-a352-b275fd6f7172", "XBOOTLDR partition"),
            Map.entry("48465300-0000-11aa-aa11-00306543ecac", "Apple HFS/HFS+"),
            Map.entry("7c3457ef-0000-11aa-aa11-00306543ecac", "Apple APFS"),
            Map.entry("426f6f74-0000-11aa-aa11-00306543ecac", "Recovery HD"),
            Map.entry("516e7cb6-6ecf-11d6-8ff8-00022d09712b", "FreeBSD UFS"),
            Map.entry("516e7cba-6ecf-11d6-8ff8-00022d09712b", "FreeBSD ZFS"));

    /** The MBR type byte as {@code 0x07}: two lower-case hex digits. */
    static String mbrType(int type) {
        return String.format("0x%02x", type & 0xff);
    }

    /** What MBR type {@code type} is, or {@code ""}. */
    static String mbrDescription(int type) {
        return MBR.getOrDefault(type & 0xff, "");
    }

    /** Whether MBR type {@code type} is an extended partition, a chain of EBRs (DOS 0x05, LBA 0x0f, Linux 0x85). */
    static boolean isExtended(int type) {
        int t = type & 0xff;
        return t == 0x05 || t == 0x0f || t == 0x85;
    }

    /** What GPT type {@code guid} (lower case) is, or {@code ""}. */
    static String gptDescription(String guid) {
        return GPT.getOrDefault(guid, "");
    }
}
