package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.vectorjce.volumes.Secrets;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeDriver;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * LUKS1 and LUKS2 in {@link org.vectorjce.volumes.Volumes}' table: the magic {@code LUKS\xba\xbe}
 * and the version after it (LUKS On-Disk Format Specification 1.2.3, section 2.4; LUKS2 On-Disk
 * Format, section 2), {@link LuksVolume}'s builder with the secrets.
 */
public final class LuksDriver implements VolumeDriver {
    private static final byte[] MAGIC = {'L', 'U', 'K', 'S', (byte) 0xba, (byte) 0xbe};

    @Override
    public Set<VolumeFormat> formats() {
        return EnumSet.of(VolumeFormat.LUKS1, VolumeFormat.LUKS2);
    }

    @Override
    public VolumeFormat probe(SeekableByteChannel image, String name) throws IOException {
        byte[] h = new byte[8];
        if (ImageIo.read(image, 0, ByteBuffer.wrap(h)) >= 0 || !Arrays.equals(h, 0, 6, MAGIC, 0, 6)) {
            return null;
        }
        int version = (h[6] & 0xff) << 8 | h[7] & 0xff;
        return version == 1 ? VolumeFormat.LUKS1 : version == 2 ? VolumeFormat.LUKS2 : null;
    }

    @Override
    public VolumeInfo info(SeekableByteChannel image, String name) throws IOException, VolumeException {
        return LuksVolume.of(image).info();
    }

    @Override
    public Set<String> takes(VolumeFormat format) {
        return Set.of("passphrase", "key file", "volume key", "header", "read-write", "executor");
    }

    @Override
    public Volume open(VolumeFormat f, Path imagePath, SeekableByteChannel imageChannel, Secrets s)
            throws IOException, VolumeException {
        if (s.keyFiles().size() > 1) {
            throw new UnsupportedVolumeException("A LUKS volume takes one key file, not " + s.keyFiles().size());
        }
        LuksVolume.Builder b = imagePath != null ? LuksVolume.at(imagePath) : LuksVolume.of(imageChannel);
        s.passphraseTo(b::passphrase, b::passphrase);
        if (!s.keyFiles().isEmpty()) {
            b.keyFile(s.keyFiles().get(0));
        }
        Secrets.ifGiven(s.volumeKey(), b::volumeKey);
        Secrets.ifGiven(s.header(), b::header);
        Secrets.ifGiven(s.executor(), b::executor);
        Secrets.ifGiven(s.provider(), b::provider);
        if (s.readWrite()) {
            b.readWrite();
        }
        // a LUKS version named must be the header's, checked before anything is unlocked
        VolumeFormat is = s.header() != null ? probe(s.header()) : imagePath != null ? probe(imagePath)
                : probe(imageChannel, "the image");
        if (is != null && is != f) {
            throw new UnsupportedVolumeException((s.header() != null ? s.header().toString()
                    : imagePath != null ? imagePath.toString() : "the image") + " is a " + is + " header, not " + f);
        }
        return b.open();
    }

    private VolumeFormat probe(Path file) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
            return probe(c, file.toString());
        }
    }
}
