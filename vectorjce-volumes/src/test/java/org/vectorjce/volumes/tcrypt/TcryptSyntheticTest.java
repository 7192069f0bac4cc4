package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthetic volumes the payload benchmark reads ({@link TcryptSynthetic}) open as what they
 * claim: the chain their header was encrypted with, the payload's place and size, and the
 * plaintext written at its start (the cascade's order against TcryptBadInputTest's independent
 * XTS over Bouncy Castle, and the chains against cryptsetup, are checked there).
 */
class TcryptSyntheticTest {
    @TempDir
    Path tmp;

    @Test
    void aSyntheticCascadeVolumeOpensAndReadsBack() throws Exception {
        byte[] pw = "synthetic".getBytes(StandardCharsets.UTF_8);
        byte[] plain = new byte[64 << 10];
        new Random(3).nextBytes(plain);
        for (String chain : new String[] {"twofish-aes", "aes"}) {
            Path f = tmp.resolve(chain + ".img");
            TcryptSynthetic.write(f, chain, pw, 1 << 20, plain, chain.equals("aes"), 5);
            try (TcryptVolume v = TcryptVolume.at(f).passphrase(pw).hash("sha512").open()) {
                assertEquals(chain, v.info().chain());
                assertEquals("xts-plain64", v.info().mode());
                assertEquals(TcryptSynthetic.DATA_OFFSET, v.info().payloadOffset());
                assertEquals(1 << 20, v.payloadSize());
                SeekableByteChannel p = v.payload();
                ByteBuffer b = ByteBuffer.allocate(plain.length);
                assertEquals(plain.length, p.read(b));
                assertArrayEquals(plain, b.array());
            }
        }
    }
}
