package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The basic, dos and posix attributes and views, as objects and by name. */
class AttributesTest {
    @Test
    void basicAttributesOfFilesFoldersAndLinks() throws IOException {
        FakeDiskFs disk = Fixture.tree(false, false);
        try (DiskFileSystem fs = Fixture.open(disk)) {
            BasicFileAttributes file = Files.readAttributes(fs.getPath("/Docs/notes.txt"), BasicFileAttributes.class);
            assertTrue(file.isRegularFile());
            assertFalse(file.isDirectory() || file.isSymbolicLink() || file.isOther());
            assertEquals(1000, file.size());
            assertEquals(FakeDiskFs.MTIME, file.lastModifiedTime());
            assertEquals(FakeDiskFs.ATIME, file.lastAccessTime());
            assertEquals(FileTime.fromMillis(1_500_000_000_000L), file.creationTime());
            assertEquals(disk.node("/Docs/notes.txt").fileKey(), file.fileKey());
            assertTrue(file.fileKey() instanceof Long);

            BasicFileAttributes dir = Files.readAttributes(fs.getPath("/Docs"), BasicFileAttributes.class);
            assertTrue(dir.isDirectory());
            assertEquals(FakeDiskFs.MTIME, dir.creationTime(), "no creation time: the modification time");

            BasicFileAttributes viaLink = Files.readAttributes(fs.getPath("/abs-link"), BasicFileAttributes.class);
            assertTrue(viaLink.isRegularFile());
            assertEquals(file.fileKey(), viaLink.fileKey());
            BasicFileAttributes link = Files.readAttributes(fs.getPath("/abs-link"), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            assertTrue(link.isSymbolicLink());
            assertFalse(link.isRegularFile());
            assertTrue(Files.isSymbolicLink(fs.getPath("/abs-link")));
            assertEquals(FakeDiskFs.MTIME, Files.getLastModifiedTime(fs.getPath("/big.bin")));
        }
    }

    @Test
    void dosAttributesAndHidden() throws IOException {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(false, false))) {
            DosFileAttributes h = Files.readAttributes(fs.getPath("/Hidden.sys"), DosFileAttributes.class);
            assertTrue(h.isHidden() && h.isSystem() && h.isReadOnly());
            assertFalse(h.isArchive());
            DosFileAttributes n = Files.readAttributes(fs.getPath("/Docs/notes.txt"), DosFileAttributes.class);
            assertTrue(n.isArchive());
            assertFalse(n.isHidden() || n.isSystem() || n.isReadOnly());
            assertTrue(Files.isHidden(fs.getPath("/hidden.SYS")));
            assertFalse(Files.isHidden(fs.getPath("/big.bin")));

            Map<String, Object> all = Files.readAttributes(fs.getPath("/Hidden.sys"), "dos:*");
            assertEquals(Set.of("lastModifiedTime", "lastAccessTime", "creationTime", "size", "isRegularFile",
                    "isDirectory", "isSymbolicLink", "isOther", "fileKey", "readonly", "hidden", "system", "archive"),
                    all.keySet());
            assertEquals(Boolean.TRUE, all.get("hidden"));
            assertEquals(4L, all.get("size"));
            assertEquals(Map.of("size", 1000L, "isDirectory", false),
                    Files.readAttributes(fs.getPath("/Docs/notes.txt"), "size,isDirectory"));
            assertEquals(Boolean.TRUE, Files.getAttribute(fs.getPath("/Hidden.sys"), "dos:system"));
            assertThrows(IllegalArgumentException.class, () -> Files.readAttributes(fs.getPath("/big.bin"), "basic:nope"));
            assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(fs.getPath("/big.bin"), "posix:*"));
            assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(fs.getPath("/big.bin"), "acl:*"));
            assertThrows(UnsupportedOperationException.class,
                    () -> Files.readAttributes(fs.getPath("/big.bin"), PosixFileAttributes.class));
            assertNull(Files.getFileAttributeView(fs.getPath("/big.bin"), PosixFileAttributeView.class));
        }
    }

    @Test
    void viewsReadAndRefuseToWrite() throws IOException {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(false, false))) {
            Path p = fs.getPath("/Docs/notes.txt");
            BasicFileAttributeView basic = Files.getFileAttributeView(p, BasicFileAttributeView.class);
            assertEquals("basic", basic.name());
            assertEquals(1000, basic.readAttributes().size());
            assertThrows(ReadOnlyFileSystemException.class, () -> basic.setTimes(null, null, null));
            DosFileAttributeView dos = Files.getFileAttributeView(p, DosFileAttributeView.class);
            assertEquals("dos", dos.name());
            assertTrue(dos.readAttributes().isArchive());
            assertThrows(ReadOnlyFileSystemException.class, () -> dos.setHidden(true));
            assertThrows(ReadOnlyFileSystemException.class, () -> dos.setReadOnly(true));
            assertThrows(ReadOnlyFileSystemException.class, () -> dos.setSystem(true));
            assertThrows(ReadOnlyFileSystemException.class, () -> dos.setArchive(false));
            BasicFileAttributeView lazy = Files.getFileAttributeView(fs.getPath("/nothere"), BasicFileAttributeView.class);
            assertThrows(java.nio.file.NoSuchFileException.class, lazy::readAttributes);
        }
    }

    @Test
    void posixWhereNodesCarryOwners() throws IOException {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(true, true))) {
            assertEquals(Set.of("basic", "dos", "posix", "owner", "unix"), fs.supportedFileAttributeViews());
            Path deep = fs.getPath("/Docs/Sub/deep.bin");
            PosixFileAttributes a = Files.readAttributes(deep, PosixFileAttributes.class);
            assertEquals("rwxr-xr--", PosixFilePermissions.toString(a.permissions()));
            assertEquals("1000", a.owner().getName());
            assertEquals("1001", a.group().getName());
            assertEquals(70_000, a.size());
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fs.getPath("/big.bin"))));
            Map<String, Object> m = Files.readAttributes(deep, "posix:permissions,owner");
            assertEquals(a.permissions(), m.get("permissions"));
            assertEquals(a.owner(), m.get("owner"));
            assertEquals("1000", Files.getOwner(deep).getName());
            // the unix view by name, as the default filesystem's: type and mode bits, numbers, links
            Map<String, Object> u = Files.readAttributes(deep, "unix:mode,uid,gid,nlink,ino,ctime");
            assertEquals(0100754, u.get("mode"));
            assertEquals(1000, u.get("uid"));
            assertEquals(1001, u.get("gid"));
            assertEquals(1, u.get("nlink"), "a node that does not know its links: one");
            assertEquals(a.fileKey(), u.get("ino"));
            assertEquals(a.lastModifiedTime(), u.get("ctime"), "no change time kept: the modification time");
            assertEquals(040000, (Integer) Files.getAttribute(fs.getPath("/Docs"), "unix:mode") & 0170000);
            PosixFileAttributeView v = Files.getFileAttributeView(deep, PosixFileAttributeView.class);
            assertThrows(ReadOnlyFileSystemException.class, () -> v.setPermissions(Set.of()));
            assertThrows(ReadOnlyFileSystemException.class, () -> v.setOwner(a.owner()));
            assertThrows(ReadOnlyFileSystemException.class, () -> v.setGroup(a.group()));
            FileOwnerAttributeView o = Files.getFileAttributeView(deep, FileOwnerAttributeView.class);
            assertEquals("1000", o.getOwner().getName());
            assertTrue(Files.isExecutable(deep), "mode 0754 has x");
            assertFalse(Files.isExecutable(fs.getPath("/big.bin")), "mode 0644 has none");
        }
    }
}
