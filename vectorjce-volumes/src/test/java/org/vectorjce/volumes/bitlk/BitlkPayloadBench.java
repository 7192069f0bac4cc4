package org.vectorjce.volumes.bitlk;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;

/**
 * The payload benchmark of bench/bitlk.sh (a main class, not a test): reads a BitLocker image's
 * whole device through {@link BitlkVolume#payload()} in 1 MiB reads and, in the same JVM and
 * thread, the same bytes through the provider's sector API bare — once from memory, once read
 * from the file first (the payload's own work: the file read and the cipher). Prints MB/s per
 * round and the ratios.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp ALL_JAR:TEST_CLASSES org.vectorjce.volumes.bitlk.BitlkPayloadBench IMAGE PASSWORD ROUNDS</pre>
 */
public final class BitlkPayloadBench {
    private BitlkPayloadBench() {
    }

    public static void main(String[] a) throws Exception {
        Path img = Path.of(a[0]);
        int rounds = Integer.parseInt(a[2]);
        byte[] key;
        String spec;
        int ss;
        try (BitlkVolume v = BitlkVolume.at(img).passphrase(a[1].toCharArray()).open()) {
            key = v.volumeKey();
            spec = v.info().cipher() + "-" + v.info().mode();
            ss = v.info().sectorSize();
        }
        byte[] raw = Files.readAllBytes(img);
        int n = raw.length / (1 << 20) * (1 << 20);
        double mb = n / 1e6;
        byte[] w = new byte[1 << 20];
        VectorJceProvider p = new VectorJceProvider();
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            try (BitlkVolume v = BitlkVolume.of(FileChannel.open(img)).volumeKey(key).open()) {
                SeekableByteChannel c = v.payload();
                ByteBuffer buf = ByteBuffer.wrap(w);
                while (c.read(buf.clear()) > 0) {
                    // the whole device
                }
            }
            long t1 = System.nanoTime();
            try (SectorCipher c = SectorCipher.of(spec, key, ss, true, p)) {
                for (int off = 0; off < n; off += w.length) {
                    System.arraycopy(raw, off, w, 0, w.length);
                    c.decrypt(off / ss, w, 0, w.length);
                }
            }
            long t2 = System.nanoTime();
            try (SectorCipher c = SectorCipher.of(spec, key, ss, true, p); FileChannel f = FileChannel.open(img)) {
                for (long off = 0; off < n; off += w.length) {
                    ByteBuffer bb = ByteBuffer.wrap(w);
                    while (bb.hasRemaining()) {
                        f.read(bb, off + bb.position());
                    }
                    c.decrypt(off / ss, w, 0, w.length);
                }
            }
            long t3 = System.nanoTime();
            System.out.printf("%s %s round %d: payload() %.0f MB/s; SectorCipher from memory %.0f MB/s (payload %.2fx);"
                    + " file read + SectorCipher %.0f MB/s (payload %.2fx)%n", img.getFileName(), spec, round,
                    mb / ((t1 - t0) / 1e9), mb / ((t2 - t1) / 1e9), (double) (t2 - t1) / (t1 - t0),
                    mb / ((t3 - t2) / 1e9), (double) (t3 - t2) / (t1 - t0));
        }
    }
}
