package org.vectorjce.volumes.fvault2;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;

/**
 * The payload benchmark of bench/fvault2.sh (a main class, not a test), as BitlkPayloadBench:
 * reads a FileVault 2 image's whole logical volume through {@link Fvault2Volume#payload()} in 1 MiB
 * reads and, in the same JVM and thread, the same bytes read from the file and decrypted by the
 * provider's sector API bare ({@code aes-xts-plain64}, 512-byte sectors numbered from the logical
 * volume's start). Prints MB/s per round and the ratio.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp ALL_JAR:TEST_CLASSES org.vectorjce.volumes.fvault2.Fvault2PayloadBench IMAGE PASSWORD ROUNDS</pre>
 */
public final class Fvault2PayloadBench {
    private Fvault2PayloadBench() {
    }

    public static void main(String[] a) throws Exception {
        Path img = Path.of(a[0]);
        int rounds = Integer.parseInt(a[2]);
        byte[] key;
        long off0, n;
        try (Fvault2Volume v = Fvault2Volume.at(img).passphrase(a[1].toCharArray()).open()) {
            key = v.volumeKey();
            off0 = v.info().logicalVolumeOffset();
            n = v.payloadSize() / (1 << 20) * (1 << 20);
        }
        double mb = n / 1e6;
        byte[] w = new byte[1 << 20];
        VectorJceProvider p = new VectorJceProvider();
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            try (Fvault2Volume v = Fvault2Volume.of(FileChannel.open(img)).volumeKey(key).open()) {
                SeekableByteChannel c = v.payload();
                ByteBuffer buf = ByteBuffer.wrap(w);
                while (c.read(buf.clear()) > 0) {
                    // the whole logical volume
                }
            }
            long t1 = System.nanoTime();
            try (SectorCipher c = SectorCipher.of("aes-xts-plain64", key, 512, false, p);
                    FileChannel f = FileChannel.open(img)) {
                for (long off = 0; off < n; off += w.length) {
                    ByteBuffer bb = ByteBuffer.wrap(w);
                    while (bb.hasRemaining()) {
                        f.read(bb, off0 + off + bb.position());
                    }
                    c.decrypt(off / 512, w, 0, w.length);
                }
            }
            long t2 = System.nanoTime();
            System.out.printf("%s round %d: payload() %.0f MB/s; file read + SectorCipher %.0f MB/s (payload %.2fx)%n",
                    img.getFileName(), round, mb / ((t1 - t0) / 1e9), mb / ((t2 - t1) / 1e9),
                    (double) (t2 - t1) / (t1 - t0));
        }
    }
}
