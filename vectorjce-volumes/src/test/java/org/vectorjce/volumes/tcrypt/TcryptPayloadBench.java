package org.vectorjce.volumes.tcrypt;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import javax.crypto.Cipher;

import org.vectorjce.SectorParameterSpec;
import org.vectorjce.volumes.internal.RawKey;

/**
 * The payload benchmark of bench/tcrypt.sh (a main class, not a test): reads the whole payload
 * of a synthetic AES-Twofish XTS volume ({@link TcryptSynthetic}, chain twofish-aes, written in
 * full so that it is read from the page cache) through
 * {@link TcryptVolume#payload()} in 1 MiB reads, and beside it, on the same thread and the same
 * number of 512-byte units in the same 1 MiB runs, the two ciphers bare: the provider's
 * {@code AES/XTS/NoPadding} then {@code Twofish/XTS/NoPadding} multi-sector calls on one buffer
 * (the series the payload does, without the image read). Prints MB/s per round and the ratio.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp ALL_JAR:TEST_CLASSES org.vectorjce.volumes.tcrypt.TcryptPayloadBench MiB ROUNDS [RUN_KiB]</pre>
 */
public final class TcryptPayloadBench {
    private TcryptPayloadBench() {
    }

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int run = args.length > 2 ? Integer.parseInt(args[2]) << 10 : 1 << 20;
        long bytes = (long) mib << 20;
        byte[] pw = "payload bench".getBytes(StandardCharsets.UTF_8);
        Path dir = Files.createTempDirectory("tcrypt-bench");
        Path img = dir.resolve("aes-twofish.img");
        try {
            TcryptSynthetic.write(img, "twofish-aes", pw, bytes, new byte[512], true, 11);
            try (TcryptVolume v = TcryptVolume.at(img).passphrase(pw).hash("sha512").cipher("twofish-aes").open()) {
                System.out.println("volume: " + v.info().chain() + "-" + v.info().mode() + ", " + mib + " MiB payload,"
                        + " 1 MiB reads; bare: the same units in " + (run >> 10) + " KiB runs, AES-XTS then Twofish-XTS,"
                        + " one thread");
                SeekableByteChannel p = v.payload();
                ByteBuffer buf = ByteBuffer.allocate(1 << 20);
                Random r = new Random(1);
                byte[] ka = new byte[64], kt = new byte[64];
                r.nextBytes(ka);
                r.nextBytes(kt);
                Cipher aes = Cipher.getInstance("AES/XTS/NoPadding", HeaderCipher.DEFAULT_PROVIDER);
                Cipher tf = Cipher.getInstance("Twofish/XTS/NoPadding", HeaderCipher.DEFAULT_PROVIDER);
                RawKey a = new RawKey("AES", ka), t = new RawKey("Twofish", kt);
                byte[] work = new byte[run];
                for (int round = 0; round <= rounds; round++) { // round 0: warm-up, not printed
                    double payload = 0, bare = 0;
                    for (int order = 0; order < 2; order++) {
                        if ((order == 0) == (round % 2 == 0)) {
                            long t0 = System.nanoTime();
                            p.position(0);
                            long got = 0;
                            int n;
                            while ((n = p.read(buf.clear())) > 0) {
                                got += n;
                            }
                            if (got != bytes) {
                                throw new IllegalStateException("read " + got + " of " + bytes);
                            }
                            payload = (System.nanoTime() - t0) / 1e9;
                        } else {
                            long t0 = System.nanoTime();
                            long unit = TcryptSynthetic.DATA_OFFSET / 512;
                            for (long done = 0; done < bytes; done += work.length, unit += work.length / 512) {
                                aes.init(Cipher.DECRYPT_MODE, a, new SectorParameterSpec("plain64", unit, 512));
                                aes.doFinal(work, 0, work.length, work, 0);
                                tf.init(Cipher.DECRYPT_MODE, t, new SectorParameterSpec("plain64", unit, 512));
                                tf.doFinal(work, 0, work.length, work, 0);
                            }
                            bare = (System.nanoTime() - t0) / 1e9;
                        }
                    }
                    if (round > 0) {
                        System.out.printf("round %d: payload %.0f MB/s (%.3f s), bare AES-XTS+Twofish-XTS in series %.0f MB/s"
                                + " (%.3f s), payload/bare %.2f%n", round, bytes / payload / 1e6, payload,
                                bytes / bare / 1e6, bare, bare / payload);
                    }
                }
            }
        } finally {
            Files.deleteIfExists(img);
            Files.deleteIfExists(dir);
        }
    }
}
