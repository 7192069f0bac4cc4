package org.vectorjce.volumes.bitlk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.SectorChannel;
import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.ImageIo;
import org.vectorjce.volumes.internal.VolumeLifecycle;

/**
 * The sectors of a BitLocker volume under the provider's {@link SectorChannel}, read-only, laid out as cryptsetup maps it
 * ({@code lib/bitlk/bitlk.c}, {@code _activate}): a device as large as the image whose
 * <ul>
 * <li>three FVE metadata areas (64 KiB each) and the place the volume's first sectors were moved
 *     to read as zeros (dm-zero segments);</li>
 * <li>first {@code headerSize} bytes are those moved sectors, read and decrypted from
 *     {@code headerOffset} with the IVs of that place;</li>
 * <li>every other byte is the image's own, decrypted with the IV of its own place; or, from
 *     {@code plainFrom} on (a volume whose conversion was paused: {@link BitlkInfo#plaintextFrom}),
 *     the image's own as stored, not decrypted.</li>
 * </ul>
 * IVs count sectors of the volume's sector size (cryptsetup sets {@code iv_large_sectors} for
 * 4096-byte sectors): sector number = the byte offset in the image / sector size. One
 * {@link SectorCipher} of the provider's sector API does every run ({@code aes-xts-plain64},
 * {@code aes-cbc-eboiv} or {@code aes-cbc-elephant}) per {@link #transform()}, keyed with the
 * FVEK (the volume owns and wipes it); a run that crosses a segment boundary is split there. The
 * image stays open when the channel closes (the volume owns it).
 */
final class BitlkSectors implements SectorChannel.Sectors {
    private final SeekableByteChannel image;
    private final String spec;
    private final byte[] fvek;
    private final VectorJceProvider provider;
    private final long[][] zero;      // {start, end} in bytes, sorted by nothing: four areas
    private final long headerOffset, headerSize;
    private final long plainFrom;
    private final int sector;

    BitlkSectors(SeekableByteChannel image, int sectorSize, String spec, byte[] fvek,
            VectorJceProvider provider, long[][] zeroAreas, long headerOffset, long headerSize, long plainFrom) {
        this.image = image;
        this.spec = spec;
        this.fvek = fvek;
        this.provider = provider;
        this.sector = sectorSize;
        this.zero = new long[zeroAreas.length][];
        for (int i = 0; i < zeroAreas.length; i++) {
            zero[i] = new long[] {zeroAreas[i][0], zeroAreas[i][0] + zeroAreas[i][1]};
        }
        this.headerOffset = headerOffset;
        this.headerSize = headerSize;
        if (plainFrom % sectorSize != 0 || plainFrom < headerSize) {
            throw new IllegalArgumentException("plaintext from byte " + plainFrom);
        }
        this.plainFrom = plainFrom;
    }

    /**
     * The segment at logical byte {@code p}: where its ciphertext is in the image (-1: zeros) as
     * {@code [0]}, how many bytes from {@code p} it runs as {@code [1]} (up to {@code max}), and
     * whether it is decrypted (1) or read as stored (0) as {@code [2]}.
     */
    private long[] segment(long p, long max) {
        long end = p + max;
        for (long[] z : zero) {
            if (p >= z[0] && p < z[1]) {
                return new long[] {-1, Math.min(z[1], end) - p, 0};
            }
            if (z[0] > p && z[0] < end) {
                end = z[0];
            }
        }
        if (p < headerSize) {
            return new long[] {headerOffset + p, Math.min(headerSize, end) - p, 1};
        }
        if (p >= plainFrom) {
            return new long[] {p, end - p, 0};
        }
        return new long[] {p, Math.min(plainFrom, end) - p, 1};
    }

    @Override
    public void read(long p, ByteBuffer dst) throws IOException {
        while (dst.hasRemaining()) {
            long[] seg = segment(p, dst.remaining());
            int n = (int) seg[1];
            ByteBuffer part = dst.slice().limit(n);
            if (seg[0] >= 0) {
                ImageIo.readPayload(image, seg[0], part);
            }
            dst.position(dst.position() + n);
            p += n;
        }
    }

    /** A cipher keyed with the FVEK over the segments: zeros, the moved header, as stored, or its own place's IVs. */
    @Override
    public SectorChannel.Transform transform() throws GeneralSecurityException {
        SectorCipher cipher;
        try {
            cipher = VolumeLifecycle.sectorCipher(spec, fvek, sector, true, provider);
        } catch (UnsupportedVolumeException e) {
            throw new GeneralSecurityException(e.getMessage(), e);
        }
        return new SectorChannel.Transform() {
            @Override
            public void decrypt(long p, byte[] b, int off, int len) {
                while (len > 0) {
                    long[] seg = segment(p, len);
                    int n = (int) seg[1];
                    if (seg[0] < 0) {
                        Arrays.fill(b, off, off + n, (byte) 0);
                    } else if (seg[2] != 0) {
                        cipher.decrypt(seg[0] / sector, b, off, n); // the IV of the sector's place in the image
                    }   // else: stored as plaintext, left as read
                    off += n;
                    len -= n;
                    p += n;
                }
            }

            @Override
            public void close() {
                cipher.close();
            }
        };
    }
}
