import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.vectorjce.SectorChannel;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * bench/payload.sh's Java part, run as a source file with the vectorjce-volumes jar on the class path:
 *
 *   cipher SPEC KEYBITS BYTES encrypt|decrypt [THREADS]
 *                                   the provider's Cipher with SectorParameterSpec (512-byte sectors),
 *                                   1 MiB calls over BYTES, on THREADS threads (default 1) each with
 *                                   its cipher and in-memory buffer and its share of the sectors, in
 *                                   this fresh JVM (as a volume command starts one); MB/s
 *   channels IMAGE KEYFILE ROUNDS   1 MiB reads, then 1 MiB writes, over the whole payload, one
 *                                   thread: LuksVolume.payload() (opened readWrite()) against
 *                                   SectorChannel over the same bytes of the image with the same cipher
 *                                   and volume key, alternated ROUNDS times in this JVM; MB/s each
 *                                   (the writes leave the payload's old plaintext changed)
 *   scaling IMAGE KEYFILE ROUNDS    steady state in one JVM after a warm-up: the bare cipher (as
 *                                   `cipher`, the volume's spec and key) on one thread against 4 MiB
 *                                   chunks of the payload read (decrypt) and written (encrypt) by two
 *                                   threads with a payload channel each, as volume decrypt/encrypt
 *                                   --threads 2 run them (without their other file); MB/s and ratios
 */
public class PayloadBench {
    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "cipher" -> cipher(a[1], Integer.parseInt(a[2]), Long.parseLong(a[3]), a[4],
                    a.length > 5 ? Integer.parseInt(a[5]) : 1);
            case "channels" -> channels(Path.of(a[1]), Path.of(a[2]), Integer.parseInt(a[3]));
            case "scaling" -> scaling(Path.of(a[1]), Path.of(a[2]), Integer.parseInt(a[3]));
            default -> throw new IllegalArgumentException(a[0]);
        }
    }

    static void cipher(String spec, int keyBits, long bytes, String direction, int threads) throws Exception {
        String[] p = spec.split("-", 3);
        String alg = p[0].equals("aes") ? "AES" : "Twofish";
        byte[] key = new byte[keyBits / 8];
        new Random(1).nextBytes(key);
        SecretKeySpec k = new SecretKeySpec(key, alg);
        int mode = direction.equals("decrypt") ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE;
        long per = bytes / threads / (1 << 20) * (1 << 20); // whole 1 MiB calls per thread
        Thread[] workers = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            long first = i * per;
            workers[i] = new Thread(() -> {
                try {
                    Cipher c = Cipher.getInstance(alg + "/" + p[1].toUpperCase() + "/NoPadding", new VectorJceProvider());
                    byte[] buf = new byte[1 << 20];
                    new Random(2).nextBytes(buf);
                    for (long done = first; done < first + per; done += buf.length) {
                        c.init(mode, k, new SectorParameterSpec(p[2], done / 512, 512));
                        c.doFinal(buf, 0, buf.length, buf, 0);
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
            });
            workers[i].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException(failure[0]);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        long total = per * threads;
        System.out.printf("bare %s %s, %d thread%s: %d bytes in %.3f s = %.0f MB/s%n", spec, direction, threads,
                threads == 1 ? "" : "s", total, s, total / s / 1e6);
    }

    static void channels(Path image, Path keyFile, int rounds) throws Exception {
        try (LuksVolume v = LuksVolume.at(image).keyFile(keyFile).readWrite().open();
             FileChannel raw = FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            byte[] vk = v.volumeKey();
            String spec = v.info().cipher();
            String alg = spec.startsWith("aes") ? "AES" : "Twofish";
            long offset = v.info().payloadOffset(), size = v.payloadSize();
            SectorChannel sc = SectorChannel.open(new Window(raw, offset, size), spec, new SecretKeySpec(vk, alg),
                    v.info().sectorSize(), 0, false);
            java.util.Arrays.fill(vk, (byte) 0);
            SeekableByteChannel payload = v.payload();
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            new Random(3).nextBytes(buf.array());
            for (int r = 1; r <= rounds; r++) {
                for (int op = 0; op < 4; op++) {
                    SeekableByteChannel ch = op % 2 == 0 ? payload : sc;
                    boolean write = op >= 2;
                    ch.position(0);
                    long t0 = System.nanoTime(), n = 0;
                    if (write) {
                        for (long at = 0; at < size; at += buf.capacity()) {
                            buf.clear().limit((int) Math.min(buf.capacity(), size - at));
                            while (buf.hasRemaining()) {
                                n += ch.write(buf);
                            }
                        }
                    } else {
                        for (int got; (got = ch.read(buf.clear())) > 0; ) {
                            n += got;
                        }
                    }
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf("round %d %s: %d bytes in 1 MiB %s, %.3f s = %.0f MB/s%n", r,
                            op % 2 == 0 ? "LuksVolume.payload()" : "SectorChannel       ", n,
                            write ? "writes" : "reads ", s, n / s / 1e6);
                }
            }
            sc.close();
        }
    }

    static void scaling(Path image, Path keyFile, int rounds) throws Exception {
        try (LuksVolume v = LuksVolume.at(image).keyFile(keyFile).readWrite().open()) {
            String spec = v.info().cipher();
            String[] p = spec.split("-", 3);
            String alg = p[0].equals("aes") ? "AES" : "Twofish";
            byte[] vk = v.volumeKey();
            SecretKeySpec k = new SecretKeySpec(vk, alg);
            java.util.Arrays.fill(vk, (byte) 0);
            long size = v.payloadSize();
            Cipher c = Cipher.getInstance(alg + "/" + p[1].toUpperCase() + "/NoPadding", new VectorJceProvider());
            byte[] buf = new byte[1 << 20];
            SeekableByteChannel[] ch = {v.payload(), v.payload()};
            for (int r = 0; r <= rounds; r++) { // round 0: warm-up, not printed
                double[] mbs = new double[4];
                for (int dir = 0; dir < 2; dir++) {
                    int mode = dir == 0 ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE;
                    long t0 = System.nanoTime();
                    for (long done = 0; done < size; done += buf.length) {
                        c.init(mode, k, new SectorParameterSpec(p[2], done / 512, 512));
                        c.doFinal(buf, 0, buf.length, buf, 0);
                    }
                    mbs[dir * 2] = size / ((System.nanoTime() - t0) / 1e9) / 1e6;
                    boolean write = dir == 1;
                    java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
                    Thread[] t = new Thread[2];
                    t0 = System.nanoTime();
                    for (int i = 0; i < 2; i++) {
                        SeekableByteChannel pc = ch[i];
                        t[i] = new Thread(() -> {
                            ByteBuffer b = ByteBuffer.allocate(4 << 20);
                            try {
                                for (long at; (at = next.getAndAdd(4 << 20)) < size; ) {
                                    b.clear().limit((int) Math.min(4 << 20, size - at));
                                    pc.position(at);
                                    while (b.hasRemaining()) {
                                        if ((write ? pc.write(b) : pc.read(b)) < 0) {
                                            throw new IOException("short");
                                        }
                                    }
                                }
                            } catch (IOException e) {
                                throw new RuntimeException(e);
                            }
                        });
                        t[i].start();
                    }
                    for (Thread th : t) {
                        th.join();
                    }
                    mbs[dir * 2 + 1] = size / ((System.nanoTime() - t0) / 1e9) / 1e6;
                }
                if (r > 0) {
                    System.out.printf("round %d %s: decrypt: bare 1 thread %.0f MB/s, payload reads 2 threads %.0f MB/s (%.2fx);"
                            + " encrypt: bare 1 thread %.0f MB/s, payload writes 2 threads %.0f MB/s (%.2fx)%n", r, spec,
                            mbs[0], mbs[1], mbs[1] / mbs[0], mbs[2], mbs[3], mbs[3] / mbs[2]);
                }
            }
        }
    }

    /** Bytes [offset, offset + size) of a file (what SectorChannel takes as the image); writes inside only. */
    static final class Window implements SeekableByteChannel {
        private final FileChannel f;
        private final long offset, size;
        private long pos;

        Window(FileChannel f, long offset, long size) {
            this.f = f;
            this.offset = offset;
            this.size = size;
        }

        @Override public int read(ByteBuffer dst) throws IOException {
            if (pos >= size) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), size - pos);
            int lim = dst.limit();
            dst.limit(dst.position() + n);
            int total = 0;
            while (dst.hasRemaining()) {
                int r = f.read(dst, offset + pos + total);
                if (r < 0) {
                    break;
                }
                total += r;
            }
            dst.limit(lim);
            pos += total;
            return total;
        }

        @Override public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            if (pos + n > size) {
                throw new IOException("past the end");
            }
            while (src.hasRemaining()) {
                f.write(src, offset + pos + (n - src.remaining()));
            }
            pos += n;
            return n;
        }
        @Override public long position() { return pos; }
        @Override public SeekableByteChannel position(long p) { pos = p; return this; }
        @Override public long size() { return size; }
        @Override public SeekableByteChannel truncate(long s) { throw new java.nio.channels.NonWritableChannelException(); }
        @Override public boolean isOpen() { return f.isOpen(); }
        @Override public void close() { }
    }
}
