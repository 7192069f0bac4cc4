package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Links resolved inside the filesystem, as POSIX resolves them (".." past the root stays at the
 * root), with a bound of 40 links per walk.
 */
class SymlinksTest {
    private final DiskFileSystem fs = Fixture.open(Fixture.tree(false, false));

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void relativeAndAbsoluteTargets() throws IOException {
        assertArrayEquals(Fixture.NOTES, Files.readAllBytes(fs.getPath("/abs-link")));
        assertArrayEquals(Fixture.NOTES, Files.readAllBytes(fs.getPath("/link-to-docs/notes.txt")));
        assertArrayEquals(Fixture.README, Files.readAllBytes(fs.getPath("/Docs/Sub/back")));
        assertEquals("/Docs/Readme.TXT", fs.getPath("/Docs/Sub/back").toRealPath().toString());
        assertEquals("/Docs/Sub/back", fs.getPath("/docs/sub/BACK").toRealPath(LinkOption.NOFOLLOW_LINKS).toString());
        assertEquals("/Docs/notes.txt", fs.getPath("link-to-docs/Sub/../notes.txt").toRealPath().toString());
        assertEquals(fs.getPath("../Readme.TXT"), Files.readSymbolicLink(fs.getPath("/Docs/Sub/back")));
        assertThrows(NotLinkException.class, () -> Files.readSymbolicLink(fs.getPath("/big.bin")));
        assertTrue(Files.isSameFile(fs.getPath("/abs-link"), fs.getPath("/docs/NOTES.TXT")));
        assertFalse(Files.isSameFile(fs.getPath("/abs-link"), fs.getPath("/big.bin")));
    }

    @Test
    void listingThroughALinkKeepsTheLinkPath() throws IOException {
        try (var s = Files.list(fs.getPath("/link-to-docs"))) {
            assertEquals(Set.of("/link-to-docs/Readme.TXT", "/link-to-docs/notes.txt", "/link-to-docs/Sub"),
                    s.map(Object::toString).collect(Collectors.toSet()));
        }
    }

    @Test
    void dotDotPastTheRootStaysAtTheRoot() throws IOException {
        assertEquals("/Docs", fs.getPath("/up-link").toRealPath().toString());
        assertTrue(Files.isDirectory(fs.getPath("/up-link")));
        assertEquals("/Docs/notes.txt", fs.getPath("/../../Docs/notes.txt").toRealPath().toString());
        assertEquals("/", fs.getPath("/..").toRealPath().toString());
        assertEquals("/", fs.getPath("").toRealPath().toString());
    }

    @Test
    void loopsAndChainsAreBounded() throws IOException {
        FileSystemException loop = assertThrows(FileSystemException.class, () -> Files.readAllBytes(fs.getPath("/loop1")));
        assertTrue(loop.getReason().contains("Too many levels"), loop.getReason());
        assertFalse(Files.exists(fs.getPath("/loop1")));
        assertTrue(Files.exists(fs.getPath("/loop1"), LinkOption.NOFOLLOW_LINKS));
        // c1 reaches the file after 40 links; c0 needs 41
        assertArrayEquals(Fixture.BIG, Files.readAllBytes(fs.getPath("/chain/c1")));
        FileSystemException chain = assertThrows(FileSystemException.class,
                () -> Files.readAllBytes(fs.getPath("/chain/c0")));
        assertTrue(chain.getReason().contains("Too many levels"), chain.getReason());
        // walking with FOLLOW_LINKS meets the loop, the long chain and the links leading out as links it
        // cannot follow (the JDK's walker then gives their own attributes), not a hang
        Set<String> broken = new TreeSet<>();
        Files.walkFileTree(fs.getPath("/"), Set.of(FileVisitOption.FOLLOW_LINKS), 10,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(java.nio.file.Path file,
                            java.nio.file.attribute.BasicFileAttributes a) {
                        if (a.isSymbolicLink()) {
                            broken.add(file.toString());
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
        assertEquals(Set.of("/loop1", "/loop2", "/chain/c0", "/drive-link", "/dangling"), broken);
    }

    @Test
    void targetsOutsideTheFileSystemAndDanglingOnesAreMissing() throws IOException {
        NoSuchFileException drive = assertThrows(NoSuchFileException.class,
                () -> Files.readAllBytes(fs.getPath("/drive-link")));
        assertTrue(drive.getReason().contains("outside"), drive.getReason());
        assertEquals(fs.getPath("C:/Windows"), Files.readSymbolicLink(fs.getPath("/drive-link")));
        assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(fs.getPath("/dangling")));
        assertTrue(Files.isSymbolicLink(fs.getPath("/dangling")));
        assertThrows(NoSuchFileException.class, () -> Files.size(fs.getPath("/big.bin/x")), "a file is no folder");
    }

    @Test
    void findFollowingLinksSeesEachFileThroughEveryLink() throws IOException {
        Set<String> through = new TreeSet<>();
        try (var s = Files.find(fs.getPath("/link-to-docs"), 5, (p, a) -> a.isRegularFile(), FileVisitOption.FOLLOW_LINKS)) {
            s.forEach(p -> through.add(p.toString()));
        }
        assertEquals(Set.of("/link-to-docs/Readme.TXT", "/link-to-docs/notes.txt", "/link-to-docs/Sub/deep.bin",
                "/link-to-docs/Sub/back"), through);
        assertInstanceOf(Long.class, Files.readAttributes(fs.getPath("/link-to-docs"),
                java.nio.file.attribute.BasicFileAttributes.class).fileKey());
    }
}
