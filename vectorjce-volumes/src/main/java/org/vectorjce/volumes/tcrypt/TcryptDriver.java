package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.vectorjce.volumes.Secrets;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeDriver;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

/**
 * TrueCrypt/VeraCrypt in {@link org.vectorjce.volumes.Volumes}' table: a header indistinguishable
 * from random data until decrypted (VeraCrypt Volume Format Specification), so it is never probed
 * and its facts are read only with the secrets; opened when named, as cryptsetup's
 * {@code --type tcrypt}, by {@link TcryptVolume}'s builder.
 */
public final class TcryptDriver implements VolumeDriver {
    @Override
    public Set<VolumeFormat> formats() {
        return EnumSet.of(VolumeFormat.TCRYPT);
    }

    /** Always null: the header has no signature. */
    @Override
    public VolumeFormat probe(SeekableByteChannel image, String name) {
        return null;
    }

    /** Refused: the header is read only by decrypting it, with the secrets ({@link TcryptVolume#info()}). */
    @Override
    public VolumeInfo info(SeekableByteChannel image, String name) throws UnsupportedVolumeException {
        throw new UnsupportedVolumeException("A TrueCrypt/VeraCrypt header is read only with its secrets ("
                + name + "): open the volume");
    }

    @Override
    public Set<String> takes(VolumeFormat format) {
        return Set.of("passphrase", "key file", "PIM", "header", "hidden", "system", "executor", "read-write");
    }

    @Override
    public Volume open(VolumeFormat f, Path imagePath, SeekableByteChannel imageChannel, Secrets s)
            throws IOException, org.vectorjce.volumes.VolumeException {
        TcryptVolume.Builder b = imagePath != null ? TcryptVolume.at(imagePath) : TcryptVolume.of(imageChannel);
        s.passphraseTo(b::passphrase, b::passphrase);
        for (Path k : s.keyFiles()) {
            b.keyFile(k);
        }
        Secrets.ifGiven(s.pim(), b::pim);
        Secrets.ifGiven(s.header(), b::header);
        Secrets.ifGiven(s.executor(), b::executor);
        Secrets.ifGiven(s.provider(), b::provider);
        b.hidden(s.hidden()).system(s.system());
        if (s.readWrite()) {
            b.readWrite();
        }
        return b.open();
    }
}
