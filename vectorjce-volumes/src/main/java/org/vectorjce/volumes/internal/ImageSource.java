package org.vectorjce.volumes.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.VolumeException;

/**
 * What every format's builder is given besides its secrets: the image (a path this library opens,
 * or a channel the caller keeps open), a detached header where the format has one, and the
 * provider (default: {@link org.vectorjce.volumes.Volumes#defaultProvider()}, made once per builder). {@link #open} opens
 * the images, runs the format's unlocking, wipes the builder's secrets whatever happens, and
 * closes what it opened when the unlocking fails.
 */
public final class ImageSource {
    private final Path path;
    private final SeekableByteChannel channel;
    private Path headerPath;
    private SeekableByteChannel headerChannel;
    private VectorJceProvider provider;
    private boolean headerReadOnly;

    /** The image file {@code image}, opened by this library and closed with the volume. */
    public static ImageSource at(Path image) {
        return new ImageSource(Objects.requireNonNull(image, "image"), null);
    }

    /** The image {@code image}, which the caller keeps open (and closes). */
    public static ImageSource of(SeekableByteChannel image) {
        return new ImageSource(null, Objects.requireNonNull(image, "image"));
    }

    /** Exactly one of {@code path} and {@code channel}. */
    public ImageSource(Path path, SeekableByteChannel channel) {
        if ((path == null) == (channel == null)) {
            throw new IllegalArgumentException("an image path or an image channel");
        }
        this.path = path;
        this.channel = channel;
    }

    /** The header is in the file {@code h}, opened as the image is. */
    public void header(Path h) {
        headerPath = Objects.requireNonNull(h, "header");
        headerChannel = null;
    }

    /** The header is in {@code h}, which the caller keeps open. */
    public void header(SeekableByteChannel h) {
        headerChannel = Objects.requireNonNull(h, "header");
        headerPath = null;
    }

    /** A detached header given as a path is opened for reading only, even when the image is opened for writing. */
    public void headerReadOnly() {
        headerReadOnly = true;
    }

    public void provider(VectorJceProvider p) {
        provider = Objects.requireNonNull(p, "provider");
    }

    /** The provider given, or {@link Volumes#defaultProvider()} (the same for every later call). */
    public VectorJceProvider provider() {
        if (provider == null) {
            provider = Volumes.defaultProvider();
        }
        return provider;
    }

    /** The image's name in messages: its path, or "the image". */
    public String name() {
        return path != null ? path.toString() : "the image";
    }

    /** Opens the image and the header (for writing too when {@code write}; channels are used as given). */
    public Images open(boolean write) throws IOException {
        EnumSet<StandardOpenOption> options = write ? EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE)
                : EnumSet.of(StandardOpenOption.READ);
        List<SeekableByteChannel> owned = new ArrayList<>(2);
        try {
            SeekableByteChannel data = channel;
            if (data == null) {
                data = Files.newByteChannel(path, options);
                owned.add(data);
            }
            SeekableByteChannel header = data;
            String headerName = name();
            if (headerPath != null) {
                header = Files.newByteChannel(headerPath,
                        headerReadOnly ? EnumSet.of(StandardOpenOption.READ) : options);
                owned.add(header);
                headerName = headerPath.toString();
            } else if (headerChannel != null) {
                header = headerChannel;
                headerName = "the header";
            }
            return new Images(data, name(), header, headerName, owned, write);
        } catch (IOException | RuntimeException e) {
            Images.closeAll(owned, e);
            throw e;
        }
    }

    /** The format's unlocking over the opened images. */
    @FunctionalInterface
    public interface Unlock<V> {
        V unlock(Images images) throws IOException, VolumeException;
    }

    /**
     * Opens the images ({@link #open}), returns what {@code unlock} makes of them, and runs
     * {@code wipeSecrets} whatever happens; the images opened here are closed unless
     * {@code unlock} returns.
     */
    public <V> V open(boolean write, Unlock<V> unlock, Runnable wipeSecrets) throws IOException, VolumeException {
        Images images = null;
        boolean ok = false;
        try {
            images = open(write);
            V v = unlock.unlock(images);
            ok = true;
            return v;
        } finally {
            wipeSecrets.run();
            if (!ok && images != null) {
                images.close();
            }
        }
    }

    /** The image and header channels of an open, and which of them were opened here (and so are closed here). */
    public static final class Images implements Closeable {
        private final SeekableByteChannel data, header;
        private final String dataName, headerName;
        private final List<SeekableByteChannel> owned;
        private final boolean writable;

        Images(SeekableByteChannel data, String dataName, SeekableByteChannel header, String headerName,
                List<SeekableByteChannel> owned, boolean writable) {
            this.data = data;
            this.dataName = dataName;
            this.header = header;
            this.headerName = headerName;
            this.owned = owned;
            this.writable = writable;
        }

        public SeekableByteChannel data() {
            return data;
        }

        public String dataName() {
            return dataName;
        }

        /** The header's channel: the image's own without a detached header. */
        public SeekableByteChannel header() {
            return header;
        }

        public String headerName() {
            return headerName;
        }

        /** Whether the images were opened for writing. */
        public boolean writable() {
            return writable;
        }

        /** Closes a detached header opened here (for formats that read it only while unlocking). */
        public void closeHeader() throws IOException {
            if (header != data && owned.remove(header)) {
                header.close();
            }
        }

        /** Closes the channels opened here; those the caller gave stay open. */
        @Override
        public void close() throws IOException {
            IOException first = closeAll(owned, null);
            owned.clear();
            if (first != null) {
                throw first;
            }
        }

        /** Closes each channel; the first failure is added to {@code into} or, without one, returned. */
        static IOException closeAll(List<SeekableByteChannel> channels, Throwable into) {
            IOException first = null;
            for (SeekableByteChannel c : channels) {
                try {
                    c.close();
                } catch (IOException e) {
                    if (into != null) {
                        into.addSuppressed(e);
                    } else if (first == null) {
                        first = e;
                    }
                }
            }
            return first;
        }
    }

    /** What {@code read} makes of the file {@code image}, opened for reading and closed after. */
    public static <T> T read(Path image, ChannelReader<T> read) throws IOException, VolumeException {
        try (SeekableByteChannel c = Files.newByteChannel(image, StandardOpenOption.READ)) {
            return read.read(c, image.toString());
        }
    }

    /** A reading of an open image, called {@code name} in messages. */
    @FunctionalInterface
    public interface ChannelReader<T> {
        T read(SeekableByteChannel image, String name) throws IOException, VolumeException;
    }

    /** Zeroes {@code b} when it is there. */
    public static void wipe(byte[] b) {
        if (b != null) {
            java.util.Arrays.fill(b, (byte) 0);
        }
    }

    /** Zeroes {@code c} when it is there. */
    public static void wipe(char[] c) {
        if (c != null) {
            java.util.Arrays.fill(c, '\0');
        }
    }
}
