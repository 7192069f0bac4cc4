package org.vectorjce.fs.nio;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.vectorjce.fs.spi.Node;

/**
 * The tree the nio tests read: files with known bytes (some mixed-case, one hidden, one with a
 * named stream), folders, and links of every kind (relative, absolute, escaping past the root,
 * a loop, a drive letter, dangling). The expected bytes are kept here, independent of the reader.
 */
final class Fixture {
    static final byte[] README = "hello readme\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] NOTES = bytes(1000, 1);
    static final byte[] DEEP = bytes(70_000, 2);
    static final byte[] BIG = bytes(300_000, 3);
    static final byte[] HIDDEN = "boot".getBytes(StandardCharsets.US_ASCII);
    static final byte[] ADS = "hello".getBytes(StandardCharsets.US_ASCII);
    static final byte[] ZONE = "[ZoneTransfer]\nZoneId=3\n".getBytes(StandardCharsets.US_ASCII);

    /** Every regular file's stored path and bytes. */
    static final Map<String, byte[]> FILES = new LinkedHashMap<>();

    static {
        FILES.put("/Docs/Readme.TXT", README);
        FILES.put("/Docs/notes.txt", NOTES);
        FILES.put("/Docs/Sub/deep.bin", DEEP);
        FILES.put("/big.bin", BIG);
        FILES.put("/Hidden.sys", HIDDEN);
        FILES.put("/ads.txt", ADS);
    }

    private Fixture() {
    }

    static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static FakeDiskFs tree(boolean caseSensitive, boolean posix) {
        FakeDiskFs fs = new FakeDiskFs(caseSensitive, posix)
                .dir("/Docs")
                .file("/Docs/Readme.TXT", README)
                .file("/Docs/notes.txt", NOTES)
                .dir("/Docs/Sub")
                .file("/Docs/Sub/deep.bin", DEEP, Node.ARCHIVE, 0754)
                .link("/Docs/Sub/back", "../Readme.TXT")
                .file("/big.bin", BIG)
                .file("/Hidden.sys", HIDDEN, Node.HIDDEN | Node.SYSTEM | Node.READ_ONLY, 0400)
                .file("/ads.txt", ADS)
                .stream("/ads.txt", "Zone.Identifier", ZONE)
                .link("/link-to-docs", "Docs")
                .link("/abs-link", "/Docs/notes.txt")
                .link("/up-link", "../../../Docs")
                .link("/loop1", "loop2")
                .link("/loop2", "loop1")
                .link("/drive-link", "C:/Windows")
                .link("/dangling", "nothere")
                .dir("/chain");
        // chain/c0 -> c1 -> ... -> c40 -> /big.bin: 41 links; chain/c1 is 40 links from the file
        for (int i = 0; i <= 40; i++) {
            fs.link("/chain/c" + i, i == 40 ? "/big.bin" : "c" + (i + 1));
        }
        return fs;
    }

    static DiskFileSystem open(FakeDiskFs disk) {
        return new DiskFileSystem(new DiskFileSystemProvider(), disk, null, null, null);
    }
}
