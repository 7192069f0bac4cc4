package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.UnknownFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/** The provider as the JDK finds it: which images it claims, which it leaves to others, env handling. */
class ProviderTest {
    @TempDir
    Path tmp;

    private Path zeros() throws IOException {
        Path p = tmp.resolve("zeros.img");
        Files.write(p, new byte[1 << 20]);
        return p;
    }

    @Test
    void theProviderIsInstalled() {
        assertTrue(FileSystemProvider.installedProviders().stream().anyMatch(p -> p instanceof DiskFileSystemProvider));
        assertEquals("vectorjce", DiskFileSystemProvider.instance().getScheme());
    }

    @Test
    void anImageWithNoFileSystemIsLeftToOtherProviders() throws IOException {
        Path img = zeros();
        assertThrows(ProviderNotFoundException.class, () -> FileSystems.newFileSystem(img, Map.of()));
        // with the claim, the real error
        assertThrows(UnknownFileSystemException.class,
                () -> FileSystems.newFileSystem(img, Map.of(DiskFileSystemProvider.CLAIM, true)));
        assertThrows(UnknownFileSystemException.class, () -> DiskFileSystems.open(img, Map.of()));
        assertThrows(UnknownFileSystemException.class,
                () -> FileSystems.newFileSystem(java.net.URI.create("vectorjce:" + img.toUri()), Map.of()));
        try (Device d = Device.open(img, false)) {
            assertThrows(UnknownFileSystemException.class, () -> DiskFileSystems.open(d, Map.of()));
            UnknownFileSystemException e = assertThrows(UnknownFileSystemException.class,
                    () -> DiskFileSystems.open(d, Map.of(DiskFileSystems.PARTITION, "2")));
            assertTrue(e.getMessage().contains("no partition 2"), e.getMessage());
        }
        // a missing file is not ours either (zipfs, asked too, says NoSuchFileException)
        assertThrows(UnsupportedOperationException.class,
                () -> DiskFileSystemProvider.instance().newFileSystem(tmp.resolve("missing.img"), Map.of()));
        assertThrows(java.nio.file.NoSuchFileException.class,
                () -> DiskFileSystems.open(tmp.resolve("missing.img"), Map.of()));
        // nor a folder; and a missing zip asked to be created reaches zipfs
        assertThrows(UnsupportedOperationException.class,
                () -> DiskFileSystemProvider.instance().newFileSystem(tmp, Map.of()));
        Path created = tmp.resolve("new.zip");
        try (FileSystem zip = FileSystems.newFileSystem(created, Map.of("create", "true"))) {
            assertEquals("jar", zip.provider().getScheme());
        }
        assertTrue(Files.exists(created));
    }

    @Test
    void aZipIsLeftToZipfs() throws IOException {
        Path zip = tmp.resolve("a.zip");
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(out)) {
            z.putNextEntry(new ZipEntry("hello.txt"));
            z.write("hi".getBytes());
        }
        try (FileSystem fs = FileSystems.newFileSystem(zip, Map.of())) {
            assertEquals("jar", fs.provider().getScheme());
            assertFalse(fs instanceof DiskFileSystem);
        }
    }

    @Test
    void aDeviceOpenerThatRecognisesTheImageClaimsIt() throws IOException {
        Path img = zeros();
        IOException wrong = assertThrows(IOException.class,
                () -> FileSystems.newFileSystem(img, Map.of(TestDeviceOpener.KEY, "wrong")));
        assertTrue(wrong.getMessage().contains("wrong passphrase"), wrong.getMessage());
        // opened, but nothing inside: the error is ours, not ProviderNotFoundException
        assertThrows(UnknownFileSystemException.class,
                () -> FileSystems.newFileSystem(img, Map.of(TestDeviceOpener.KEY, "open")));
    }

    @Test
    void envValuesAreChecked() {
        assertEquals(3, Mounter.partitionNumber(3));
        assertEquals(3, Mounter.partitionNumber(" 3 "));
        assertThrows(IllegalArgumentException.class, () -> Mounter.partitionNumber("three"));
        assertThrows(IllegalArgumentException.class, () -> Mounter.partitionNumber(3.0));
        assertEquals("IBM437", Mounter.options(Map.of()).codePage().name());
        assertEquals("IBM850", Mounter.options(Map.of(DiskFileSystems.CODE_PAGE, "cp850")).codePage().name());
        assertThrows(IllegalArgumentException.class, () -> Mounter.options(Map.of(DiskFileSystems.CODE_PAGE, "nope-1")));
    }

    /** A device that records whether it was closed. */
    private static final class Recording implements Device {
        final Device inner;
        boolean closed;

        Recording(Device inner) {
            this.inner = inner;
        }

        public long size() {
            return inner.size();
        }

        public boolean readOnly() {
            return true;
        }

        public int read(ByteBuffer dst, long offset) throws IOException {
            return inner.read(dst, offset);
        }

        public void write(ByteBuffer src, long offset) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        public void flush() {
        }

        public void close() throws IOException {
            closed = true;
            inner.close();
        }
    }

    @Test
    void aMountedFileSystemOwnsItsDeviceAndAnswersInfo() throws IOException {
        Path img = zeros();
        Recording device = new Recording(Device.open(img, false));
        FsDriver fake = new FsDriver() {
            public String name() {
                return "fake";
            }

            public boolean probe(Device d) {
                return true;
            }

            public DiskFs open(Device d, FsOptions o) {
                return Fixture.tree(false, false);
            }
        };
        Partition whole = new Partition(1, "none", "", "", "", 0, device.size());
        FileSystem fs = Mounter.mount(DiskFileSystemProvider.instance(), device, new Mounter.Found(whole, fake),
                FsOptions.defaults(), img.toUri(), device);
        FsInfo info = DiskFileSystems.info(fs);
        assertEquals("FAKE", info.type());
        assertEquals(whole, DiskFileSystems.partition(fs));
        assertArrayEquals(Fixture.NOTES, Files.readAllBytes(fs.getPath("/Docs/notes.txt")));
        assertEquals("vectorjce:" + img.toUri() + "!/Docs/a%20b", fs.getPath("Docs/a b").toUri().toString());
        assertThrows(FileSystemNotFoundException.class, () -> Path.of(fs.getPath("/Docs").toUri()));
        assertInstanceOf(DiskFileSystemProvider.class, fs.provider());
        fs.close();
        assertTrue(device.closed, "closing the filesystem closes the device it owns");
        assertThrows(ProviderMismatchException.class, () -> DiskFileSystems.info(FileSystems.getDefault()));
    }
}
