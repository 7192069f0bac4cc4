package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.vectorjce.volumes.Secrets;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeDriver;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

/**
 * FileVault 2 in {@link org.vectorjce.volumes.Volumes}' table: a Core Storage physical volume
 * header (its signature, version and CRC-32C, as cryptsetup's {@code FVAULT2_read_metadata} checks
 * them); {@link Fvault2Volume}'s builder with the secrets.
 */
public final class Fvault2Driver implements VolumeDriver {
    @Override
    public Set<VolumeFormat> formats() {
        return EnumSet.of(VolumeFormat.FVAULT2);
    }

    @Override
    public VolumeFormat probe(SeekableByteChannel image, String name) throws IOException {
        return Fvault2Volume.looksLikeFvault2(image) ? VolumeFormat.FVAULT2 : null;
    }

    @Override
    public VolumeInfo info(SeekableByteChannel image, String name) throws IOException, VolumeException {
        return Fvault2Volume.info(image, name);
    }

    @Override
    public Set<String> takes(VolumeFormat format) {
        return Set.of("passphrase", "volume key");
    }

    @Override
    public Volume open(VolumeFormat f, Path imagePath, SeekableByteChannel imageChannel, Secrets s)
            throws IOException, VolumeException {
        Fvault2Volume.Builder b = imagePath != null ? Fvault2Volume.at(imagePath) : Fvault2Volume.of(imageChannel);
        s.passphraseTo(b::passphrase, b::passphrase);
        Secrets.ifGiven(s.volumeKey(), b::volumeKey);
        Secrets.ifGiven(s.provider(), b::provider);
        return b.open();
    }
}
