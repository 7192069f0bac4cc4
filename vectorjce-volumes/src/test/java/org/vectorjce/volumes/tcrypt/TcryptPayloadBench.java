package org.vectorjce.volumes.tcrypt;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import javax.crypto.Cipher;

import org.vectorjce.RawKey;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.volumes.internal.BlockCipherXts;

/**
 * The payload benchmark of bench/tcrypt.sh (a main class, not a test): reads the whole payload
 * of a synthetic XTS volume of chain {@code CHAIN} ({@link TcryptSynthetic}; default
 * {@code twofish-aes}, VeraCrypt's AES-Twofish; written in full so that it is read from the page
 * cache) through {@link TcryptVolume#payload()} in 1 MiB reads, and beside it, on the same thread and
 * the same number of 512-byte units in the same runs, the chain's ciphers bare in the order the
 * payload decrypts them (the last first): the provider's {@code AES|Twofish|Serpent/XTS/NoPadding}
 * multi-sector calls on one buffer, or {@code BlockCipherXts} over Bouncy Castle's engine for
 * Camellia and Kuznyechik (the series the payload does, without the image read). Prints MB/s per
 * round and the ratio bare / payload.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp ALL_JAR:TEST_CLASSES org.vectorjce.volumes.tcrypt.TcryptPayloadBench MiB ROUNDS [RUN_KiB [CHAIN]]</pre>
 */
public final class TcryptPayloadBench {
    private TcryptPayloadBench() {
    }

    /** One bare cipher over runs of 512-byte units. */
    private interface Bare {
        void decrypt(long unit, byte[] b) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int run = args.length > 2 ? Integer.parseInt(args[2]) << 10 : 1 << 20;
        String chainName = args.length > 3 ? args[3] : "twofish-aes";
        Chain chain = Chain.ROWS.stream().filter(c -> c.mode() == Chain.Mode.XTS && c.name().equals(chainName))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no XTS chain " + chainName));
        long bytes = (long) mib << 20;
        byte[] pw = "payload bench".getBytes(StandardCharsets.UTF_8);
        Path dir = Files.createTempDirectory("tcrypt-bench");
        Path img = dir.resolve(chainName + ".img");
        try {
            TcryptSynthetic.write(img, chainName, pw, bytes, new byte[512], true, 11);
            try (TcryptVolume v = TcryptVolume.at(img).passphrase(pw).hash("sha512").cipher(chainName).open()) {
                List<String> names = new ArrayList<>();
                Random r = new Random(1);
                List<Bare> bare = new ArrayList<>();
                for (int i = chain.parts().size() - 1; i >= 0; i--) {
                    String c = chain.parts().get(i).cipher();
                    byte[] k = new byte[64];
                    r.nextBytes(k);
                    if (Ecb.PROVIDER.contains(c)) {
                        String alg = Ecb.jcaName(c);
                        Cipher x = Cipher.getInstance(alg + "/XTS/NoPadding", new org.vectorjce.VectorJceProvider());
                        RawKey key = new RawKey(alg, k);
                        bare.add((unit, b) -> {
                            x.init(Cipher.DECRYPT_MODE, key, new SectorParameterSpec("plain64", unit, 512));
                            x.doFinal(b, 0, b.length, b, 0);
                        });
                        names.add(alg + "-XTS");
                    } else {
                        BlockCipherXts x = BlockCipherXts.of(() -> TcryptSynthetic.engine(c), k, 512);
                        bare.add((unit, b) -> x.decrypt(unit, b, 0, b.length));
                        names.add(c + "-XTS (Bouncy Castle engine, BlockCipherXts)");
                    }
                }
                System.out.println("volume: " + v.info().chain() + "-" + v.info().mode() + ", " + mib + " MiB payload,"
                        + " 1 MiB reads; bare: the same units in " + (run >> 10) + " KiB runs, "
                        + String.join(" then ", names) + ", one thread");
                SeekableByteChannel p = v.payload();
                ByteBuffer buf = ByteBuffer.allocate(1 << 20);
                byte[] work = new byte[run];
                for (int round = 0; round <= rounds; round++) { // round 0: warm-up, not printed
                    double payload = 0, bareTime = 0;
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
                                for (Bare b : bare) {
                                    b.decrypt(unit, work);
                                }
                            }
                            bareTime = (System.nanoTime() - t0) / 1e9;
                        }
                    }
                    if (round > 0) {
                        System.out.printf("round %d: payload %.0f MB/s (%.3f s), bare %s in series %.0f MB/s"
                                + " (%.3f s), payload/bare %.2f%n", round, bytes / payload / 1e6, payload,
                                String.join("+", names).replaceAll(" \\(.*?\\)", ""), bytes / bareTime / 1e6, bareTime,
                                bareTime / payload);
                    }
                }
            }
        } finally {
            Files.deleteIfExists(img);
            Files.deleteIfExists(dir);
        }
    }
}
