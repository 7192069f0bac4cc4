package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Listing, walking, globbing and reading the fixture tree through java.nio.file's own entry points. */
class DiskFileSystemReadTest {
    private FakeDiskFs disk;
    private DiskFileSystem fs;

    @BeforeEach
    void open() {
        disk = Fixture.tree(false, false);
        fs = Fixture.open(disk);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private static Set<String> strings(Stream<Path> s) {
        try (s) {
            return s.map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void walkListsEveryEntryOnceWithoutFollowingLinks() throws IOException {
        Set<String> expected = new TreeSet<>(List.of("/", "/Docs", "/Docs/Readme.TXT", "/Docs/notes.txt",
                "/Docs/Sub", "/Docs/Sub/deep.bin", "/Docs/Sub/back", "/big.bin", "/Hidden.sys", "/ads.txt",
                "/link-to-docs", "/abs-link", "/up-link", "/loop1", "/loop2", "/drive-link", "/dangling", "/chain"));
        for (int i = 0; i <= 40; i++) {
            expected.add("/chain/c" + i);
        }
        assertEquals(expected, strings(Files.walk(fs.getPath("/"))));
        assertEquals(0, disk.openListings.get(), "every listing closed");
    }

    @Test
    void listAndFindAndTheGlobFilter() throws IOException {
        assertEquals(Set.of("/Docs/Readme.TXT", "/Docs/notes.txt", "/Docs/Sub"), strings(Files.list(fs.getPath("/Docs"))));
        assertEquals(Set.of("Docs/Readme.TXT", "Docs/notes.txt", "Docs/Sub"), strings(Files.list(fs.getPath("Docs"))));
        // FAT-like: the glob matches "Readme.TXT" case-insensitively, as Windows does
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(fs.getPath("/Docs"), "*.txt")) {
            Set<String> names = new TreeSet<>();
            ds.forEach(p -> names.add(p.getFileName().toString()));
            assertEquals(Set.of("Readme.TXT", "notes.txt"), names);
        }
        assertEquals(Set.of("/Docs/Sub/deep.bin", "/big.bin"), strings(Files.find(fs.getPath("/"), 10,
                (p, a) -> a.isRegularFile() && a.size() > 1000)));
        assertThrows(NotDirectoryException.class, () -> Files.list(fs.getPath("/big.bin")));
        assertThrows(NoSuchFileException.class, () -> Files.list(fs.getPath("/nothere")));
    }

    @Test
    void directoryStreamHasOneIteratorAndEndsWhenClosed() throws IOException {
        DirectoryStream<Path> ds = Files.newDirectoryStream(fs.getPath("/"));
        Iterator<Path> it = ds.iterator();
        assertThrows(IllegalStateException.class, ds::iterator);
        assertTrue(it.hasNext());
        it.next();
        ds.close();
        assertEquals(0, disk.openListings.get());
        int after = 0;
        while (it.hasNext()) {
            it.next();
            after++;
        }
        assertTrue(after <= 1, "at most the entry read ahead: " + after);
        assertThrows(IllegalStateException.class, ds::iterator);
        DirectoryStream<Path> closed = Files.newDirectoryStream(fs.getPath("/"));
        closed.close();
        assertThrows(IllegalStateException.class, closed::iterator);
    }

    @Test
    void everyFileReadsBackItsBytes(@TempDir Path tmp) throws IOException {
        for (Map.Entry<String, byte[]> e : Fixture.FILES.entrySet()) {
            Path p = fs.getPath(e.getKey());
            assertArrayEquals(e.getValue(), Files.readAllBytes(p), e.getKey());
            assertEquals(e.getValue().length, Files.size(p));
            try (var in = Files.newInputStream(p)) {
                assertArrayEquals(e.getValue(), in.readAllBytes(), e.getKey());
            }
            Path out = tmp.resolve(p.getFileName().toString());
            Files.copy(p, out);
            assertArrayEquals(e.getValue(), Files.readAllBytes(out), e.getKey() + " copied out");
        }
        assertThrows(IOException.class, () -> Files.readAllBytes(fs.getPath("/Docs")));
    }

    @Test
    void namesAreLookedUpCaseInsensitivelyAndRealPathsGiveTheStoredNames() throws IOException {
        assertArrayEquals(Fixture.README, Files.readAllBytes(fs.getPath("/docs/README.txt")));
        assertEquals("/Docs/Readme.TXT", fs.getPath("DOCS/sub/../readme.txt").toRealPath().toString());
        assertTrue(Files.isDirectory(fs.getPath("/dOcS/sUb")));
        try (DiskFileSystem strict = Fixture.open(Fixture.tree(true, false))) {
            assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(strict.getPath("/docs/README.txt")));
            assertArrayEquals(Fixture.README, Files.readAllBytes(strict.getPath("/Docs/Readme.TXT")));
        }
    }

    @Test
    void namedStreamsAreReadAsFileColonStream() throws IOException {
        Path zone = fs.getPath("/ads.txt:Zone.Identifier");
        assertArrayEquals(Fixture.ZONE, Files.readAllBytes(zone));
        assertEquals(Fixture.ZONE.length, Files.size(zone));
        assertTrue(Files.isRegularFile(zone));
        assertEquals("/ads.txt:Zone.Identifier", fs.getPath("/ADS.TXT:zone.identifier").toRealPath().toString());
        assertArrayEquals(Fixture.ADS, Files.readAllBytes(fs.getPath("/ads.txt")));
        assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(fs.getPath("/ads.txt:nope")));
        assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(fs.getPath("/big.bin:x")));
        assertFalse(Files.isSameFile(zone, fs.getPath("/ads.txt")));
    }

    @Test
    void channelSeeksAndReads() throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/big.bin"))) {
            assertEquals(Fixture.BIG.length, ch.size());
            ch.position(123_456);
            ByteBuffer b = ByteBuffer.allocate(5000);
            while (b.hasRemaining()) {
                assertTrue(ch.read(b) > 0);
            }
            assertArrayEquals(Arrays.copyOfRange(Fixture.BIG, 123_456, 128_456), b.array());
            assertEquals(128_456, ch.position());
            ch.position(Fixture.BIG.length - 10);
            ByteBuffer tail = ByteBuffer.allocate(100);
            assertEquals(10, ch.read(tail));
            assertEquals(-1, ch.read(tail));
            ch.position(Fixture.BIG.length + 5);
            assertEquals(-1, ch.read(ByteBuffer.allocate(1)));
            assertEquals(0, ch.read(ByteBuffer.allocate(0)));
            assertThrows(IllegalArgumentException.class, () -> ch.position(-1));
            assertThrows(NonWritableChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));
            assertThrows(NonWritableChannelException.class, () -> ch.truncate(0));
            ch.close();
            assertFalse(ch.isOpen());
            assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
        }
        IOException e = assertThrows(IOException.class, () -> Files.newByteChannel(fs.getPath("/Docs")));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    @Test
    void fileChannelReadsAtPositionsScattersAndTransfers(@TempDir Path tmp) throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath("/Docs/Sub/deep.bin"))) {
            ByteBuffer b = ByteBuffer.allocate(3000);
            int n = 0;
            while (b.hasRemaining()) {
                n += ch.read(b, 40_000 + n);
            }
            assertArrayEquals(Arrays.copyOfRange(Fixture.DEEP, 40_000, 43_000), b.array());
            assertEquals(0, ch.position(), "a positional read leaves the position");
            assertEquals(-1, ch.read(ByteBuffer.allocate(1), Fixture.DEEP.length));
            ByteBuffer[] parts = {ByteBuffer.allocate(1500), ByteBuffer.allocate(2500)};
            ch.position(100);
            assertEquals(4000, ch.read(parts, 0, 2));
            assertArrayEquals(Arrays.copyOfRange(Fixture.DEEP, 100, 1600), parts[0].array());
            assertArrayEquals(Arrays.copyOfRange(Fixture.DEEP, 1600, 4100), parts[1].array());
            Path out = tmp.resolve("deep.bin");
            try (FileChannel to = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                assertEquals(Fixture.DEEP.length - 5, ch.transferTo(5, Long.MAX_VALUE, to));
            }
            assertArrayEquals(Arrays.copyOfRange(Fixture.DEEP, 5, Fixture.DEEP.length), Files.readAllBytes(out));
            assertTrue(ch.lock(0, 10, true).isValid());
            assertThrows(NonWritableChannelException.class, () -> ch.lock(0, 10, false));
            assertThrows(UnsupportedOperationException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 10));
            assertThrows(NonWritableChannelException.class, () -> ch.write(ByteBuffer.allocate(1), 0));
            assertThrows(java.nio.file.ReadOnlyFileSystemException.class,
                    () -> FileChannel.open(fs.getPath("/big.bin"), StandardOpenOption.WRITE));
        }
    }

    @Test
    void fileStoreAndRoots() throws IOException {
        FileStore store = Files.getFileStore(fs.getPath("/Docs"));
        assertEquals("FAKE", store.type());
        assertEquals("FAKELABEL", store.name());
        assertEquals(1 << 20, store.getTotalSpace());
        assertEquals(1 << 19, store.getUnallocatedSpace());
        assertEquals(1 << 19, store.getUsableSpace());
        assertTrue(store.isReadOnly());
        assertTrue(store.supportsFileAttributeView("dos"));
        assertFalse(store.supportsFileAttributeView("posix"));
        assertEquals(List.of(fs.getPath("/")), fs.getRootDirectories());
        assertEquals(List.of(store), fs.getFileStores());
        assertEquals("/", fs.getSeparator());
        assertTrue(fs.isReadOnly());
        assertEquals(Set.of("basic", "dos"), fs.supportedFileAttributeViews());
        assertThrows(UnsupportedOperationException.class, fs::newWatchService);
    }

    @Test
    void resolvedNamesAreCached() throws IOException {
        Files.size(fs.getPath("/Docs/Sub/deep.bin"));
        int before = disk.lookups.get();
        for (int i = 0; i < 100; i++) {
            Files.size(fs.getPath("/Docs/Sub/deep.bin"));
        }
        assertEquals(before, disk.lookups.get(), "no lookup after the first walk");
    }
}
