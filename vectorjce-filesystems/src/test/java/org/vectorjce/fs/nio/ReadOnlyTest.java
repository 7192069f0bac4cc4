package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every write API is a ReadOnlyFileSystemException; checkAccess answers with AccessDeniedException. */
class ReadOnlyTest {
    @Test
    void everyChangeIsRefused() throws IOException {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(false, true))) {
            Path file = fs.getPath("/Docs/notes.txt");
            Path dir = fs.getPath("/Docs");
            Path fresh = fs.getPath("/Docs/new.txt");
            Executable[] writes = {
                () -> Files.write(file, new byte[1]),
                () -> Files.write(fresh, new byte[1]),
                () -> Files.writeString(file, "x"),
                () -> Files.newOutputStream(file),
                () -> Files.newByteChannel(file, StandardOpenOption.WRITE),
                () -> Files.newByteChannel(file, StandardOpenOption.APPEND),
                () -> Files.newByteChannel(file, StandardOpenOption.READ, StandardOpenOption.DELETE_ON_CLOSE),
                () -> Files.newBufferedWriter(file),
                () -> Files.createFile(fresh),
                () -> Files.createDirectory(fs.getPath("/newdir")),
                () -> Files.createDirectories(fs.getPath("/newdir/a")),
                () -> Files.createSymbolicLink(fresh, file),
                () -> Files.createLink(fresh, file),
                () -> Files.delete(file),
                () -> Files.deleteIfExists(file),
                () -> Files.copy(file, fresh),
                () -> Files.copy(new java.io.ByteArrayInputStream(new byte[1]), fresh),
                () -> Files.copy(java.nio.file.Path.of("/proc/self/stat"), fresh),
                () -> Files.createTempFile(dir, "x", ".tmp"),
                () -> Files.move(file, fresh),
                () -> Files.move(file, dir.resolve("x")),
                () -> Files.setAttribute(file, "dos:hidden", true),
                () -> Files.setLastModifiedTime(file, FileTime.fromMillis(0)),
                () -> Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx")),
                () -> Files.setOwner(file, Files.getOwner(file)),
            };
            for (int i = 0; i < writes.length; i++) {
                assertThrows(ReadOnlyFileSystemException.class, writes[i], "write API #" + i);
            }
            assertTrue(Files.exists(file), "nothing changed");
            assertFalse(Files.exists(fresh));
        }
    }

    @Test
    void checkAccess() throws IOException {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(false, false))) {
            Path file = fs.getPath("/Docs/notes.txt");
            var provider = fs.provider();
            provider.checkAccess(file);
            provider.checkAccess(file, AccessMode.READ);
            provider.checkAccess(fs.getPath("/Docs"), AccessMode.EXECUTE);
            assertThrows(AccessDeniedException.class, () -> provider.checkAccess(file, AccessMode.WRITE));
            assertThrows(AccessDeniedException.class, () -> provider.checkAccess(file, AccessMode.EXECUTE));
            assertThrows(NoSuchFileException.class, () -> provider.checkAccess(fs.getPath("/nothere")));
            assertTrue(Files.isReadable(file));
            assertFalse(Files.isWritable(file));
            assertFalse(Files.isWritable(fs.getPath("/Docs")));
            assertFalse(Files.isExecutable(file));
            assertTrue(Files.exists(file));
            assertTrue(Files.notExists(fs.getPath("/nothere")));
        }
    }
}
