package org.vectorjce.volumes.bitlk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.vectorjce.volumes.Secrets;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeDriver;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * BitLocker in {@link org.vectorjce.volumes.Volumes}' table: the boot sector's OEM name
 * {@code -FVE-FS-}, or BitLocker To Go's {@code MSWIN4.1} with FVE metadata behind it (any other
 * FAT volume has none), as cryptsetup's {@code BITLK_read_sb} tells them; {@link BitlkVolume}'s
 * builder with the secrets.
 */
public final class BitlkDriver implements VolumeDriver {
    @Override
    public Set<VolumeFormat> formats() {
        return EnumSet.of(VolumeFormat.BITLK);
    }

    @Override
    public VolumeFormat probe(SeekableByteChannel image, String name) throws IOException {
        byte[] h = new byte[11];
        if (ImageIo.read(image, 0, ByteBuffer.wrap(h)) >= 0) {
            return null;
        }
        String sig = new String(h, 3, 8, StandardCharsets.ISO_8859_1);
        if (sig.equals("-FVE-FS-")) {
            return VolumeFormat.BITLK;
        }
        if (sig.equals("MSWIN4.1")) {
            try {
                BitlkVolume.info(image, name);
                return VolumeFormat.BITLK;
            } catch (VolumeException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public VolumeInfo info(SeekableByteChannel image, String name) throws IOException, VolumeException {
        return BitlkVolume.info(image, name);
    }

    @Override
    public Set<String> takes(VolumeFormat format) {
        return Set.of("passphrase", "recovery password", "startup key", "volume key");
    }

    @Override
    public Volume open(VolumeFormat f, Path imagePath, SeekableByteChannel imageChannel, Secrets s)
            throws IOException, VolumeException {
        BitlkVolume.Builder b = imagePath != null ? BitlkVolume.at(imagePath) : BitlkVolume.of(imageChannel);
        s.passphraseTo(b::passphrase, b::passphrase);
        if (s.startupKeyFile() != null) {
            b.startupKey(s.startupKeyFile()); // reads the file: IOException
        }
        Secrets.ifGiven(s.startupKeyBytes(), b::startupKey);
        Secrets.ifGiven(s.recoveryPassword(), b::recoveryPassword);
        Secrets.ifGiven(s.volumeKey(), b::volumeKey);
        Secrets.ifGiven(s.provider(), b::provider);
        return b.open();
    }
}
