package org.vectorjce.volumes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.tukaani.xz.XZInputStream;

/**
 * A {@code .tar.xz} of cryptsetup's test images read into memory: cryptsetup's
 * {@code tests/bitlk-images.tar.xz} and {@code tests/fvault2-images.tar.xz} hold GNU sparse
 * entries (images of 100 to 512 MiB whose data is a few extents), so each image is kept as its
 * extents and read through {@link Sparse}, a channel that gives zeros in the holes, as the
 * unpacked sparse file does. Plain files (a configuration, key files) are kept as bytes.
 */
public final class SparseImages {
    /** The sparse images by name (without {@code .img}) and the plain files by name. */
    public record Contents(Map<String, Image> images, Map<String, byte[]> files) {
    }

    private SparseImages() {
    }

    /** One image's extents: {offset → bytes}, and its size. */
    public record Image(String name, long size, TreeMap<Long, byte[]> extents) {
        public Sparse channel() {
            return new Sparse(this);
        }

        /** A copy whose extents can be changed without touching this one. */
        public Image copy() {
            TreeMap<Long, byte[]> e = new TreeMap<>();
            extents.forEach((k, v) -> e.put(k, v.clone()));
            return new Image(name, size, e);
        }

        /** The same extents, cut to {@code newSize} bytes. */
        public Image truncated(long newSize) {
            TreeMap<Long, byte[]> e = new TreeMap<>();
            extents.forEach((k, v) -> {
                if (k < newSize) {
                    e.put(k, Arrays.copyOf(v, (int) Math.min(v.length, newSize - k)));
                }
            });
            return new Image(name, newSize, e);
        }

        /** Writes {@code b} at {@code at}, inside an existing extent. */
        public void patch(long at, byte[] b) {
            Map.Entry<Long, byte[]> e = extents.floorEntry(at);
            if (e == null || at + b.length > e.getKey() + e.getValue().length) {
                throw new IllegalArgumentException("patch outside the data at " + at);
            }
            System.arraycopy(b, 0, e.getValue(), (int) (at - e.getKey()), b.length);
        }

        /**
         * Writes {@code b} at {@code at}, in the data or in a hole: the extents it touches become one
         * (holes read as zeros, as before).
         */
        public void put(long at, byte[] b) throws IOException {
            long lo = at, hi = at + b.length;
            Map.Entry<Long, byte[]> before = extents.floorEntry(at);
            if (before != null && before.getKey() + before.getValue().length >= at) {
                lo = before.getKey();
            }
            for (Map.Entry<Long, byte[]> e : extents.subMap(lo, true, hi, false).entrySet()) {
                hi = Math.max(hi, e.getKey() + e.getValue().length);
            }
            byte[] merged = read(lo, (int) (hi - lo));
            System.arraycopy(b, 0, merged, (int) (at - lo), b.length);
            extents.subMap(lo, true, hi, false).clear();
            extents.put(lo, merged);
        }

        public byte[] read(long at, int len) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(len);
            try (Sparse s = channel()) {
                s.position(at);
                while (b.hasRemaining() && s.read(b) > 0) {
                    // fill
                }
            }
            return b.array();
        }

        /** The image as a sparse file in {@code dir} (for cryptsetup). */
        public Path write(Path dir) throws IOException {
            Path f = dir.resolve(name + ".img");
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (Map.Entry<Long, byte[]> e : extents.entrySet()) {
                    ByteBuffer b = ByteBuffer.wrap(e.getValue());
                    while (b.hasRemaining()) {
                        c.write(b, e.getKey() + b.position());
                    }
                }
                if (c.size() < size) {
                    c.write(ByteBuffer.wrap(new byte[1]), size - 1);
                }
            }
            return f;
        }
    }

    /** A read-only channel over an {@link Image}: its extents, zeros elsewhere. */
    public static final class Sparse implements SeekableByteChannel {
        private final Image im;
        private long pos;
        private boolean open = true;

        public Sparse(Image im) {
            this.im = im;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (pos >= im.size()) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), im.size() - pos);
            int done = 0;
            while (done < n) {
                long p = pos + done;
                Map.Entry<Long, byte[]> e = im.extents().floorEntry(p);
                int take;
                if (e != null && p < e.getKey() + e.getValue().length) {
                    int o = (int) (p - e.getKey());
                    take = Math.min(n - done, e.getValue().length - o);
                    dst.put(e.getValue(), o, take);
                } else {
                    Long next = im.extents().higherKey(p);
                    long stop = next == null ? p + (n - done) : Math.min(next, p + (n - done));
                    take = (int) (stop - p);
                    for (int i = 0; i < take; i++) {
                        dst.put((byte) 0);
                    }
                }
                done += take;
            }
            pos += n;
            return n;
        }

        @Override public int write(ByteBuffer src) { throw new NonWritableChannelException(); }
        @Override public long position() { return pos; }
        @Override public SeekableByteChannel position(long p) { pos = p; return this; }
        @Override public long size() { return im.size(); }
        @Override public SeekableByteChannel truncate(long s) { throw new NonWritableChannelException(); }
        @Override public boolean isOpen() { return open; }
        @Override public void close() { open = false; }
    }

    /** Reads {@code tarball} ({@code .tar.xz}): its sparse entries as images, its regular files as bytes. */
    public static Contents read(Path tarball) throws IOException {
        Map<String, Image> ims = new TreeMap<>();
        Map<String, byte[]> fs = new TreeMap<>();
        try (InputStream in = new XZInputStream(new java.io.BufferedInputStream(Files.newInputStream(tarball), 1 << 16))) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512 && h[0] != 0) {
                String name = cstring(h, 0, 100);
                name = name.substring(name.lastIndexOf('/') + 1);
                long stored = octal(h, 124, 12);
                long padded = (stored + 511) / 512 * 512;
                if (h[156] == 'S') {
                    // GNU sparse: 4 (offset, length) pairs at 386, more in extension blocks while byte 482 (then 504) is set
                    List<long[]> map = new ArrayList<>();
                    pairs(h, 386, 4, map);
                    boolean more = h[482] != 0;
                    long real = octal(h, 483, 12);
                    while (more) {
                        byte[] x = in.readNBytes(512);
                        pairs(x, 0, 21, map);
                        more = x[504] != 0;
                    }
                    TreeMap<Long, byte[]> ext = new TreeMap<>();
                    long read = 0;
                    for (long[] m : map) {
                        if (m[1] > 0) {
                            ext.put(m[0], in.readNBytes((int) m[1]));
                            read += m[1];
                        }
                    }
                    in.skipNBytes(padded - read);
                    String n = name.endsWith(".img") ? name.substring(0, name.length() - 4) : name;
                    ims.put(n, new Image(n, real, ext));
                } else if (h[156] == '0' || h[156] == 0) {
                    fs.put(name, in.readNBytes((int) stored));
                    in.skipNBytes(padded - stored);
                } else {
                    in.skipNBytes(padded);
                }
            }
        }
        return new Contents(ims, fs);
    }

    private static void pairs(byte[] b, int off, int n, List<long[]> out) {
        for (int i = 0; i < n; i++) {
            int o = off + 24 * i;
            if (b[o] == 0) {
                return;
            }
            out.add(new long[] {octal(b, o, 12), octal(b, o + 12, 12)});
        }
    }

    private static long octal(byte[] b, int off, int len) {
        String s = cstring(b, off, len).trim();
        return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }

    private static String cstring(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.US_ASCII);
    }

}
