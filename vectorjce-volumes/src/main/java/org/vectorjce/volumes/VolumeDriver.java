package org.vectorjce.volumes;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Set;

/**
 * One volume format as {@link Volumes} drives it, as cryptsetup's {@code crypt_load(type)} and
 * qemu's block-driver table do: probe the header for the format's signature, read the header's
 * facts, open with the secrets. Each format package gives one ({@code LuksDriver},
 * {@code TcryptDriver}, {@code BitlkDriver}, {@code Fvault2Driver}), found through
 * {@link java.util.ServiceLoader} so that this package names no format package (the formats depend
 * on it, not the other way).
 */
public interface VolumeDriver {
    /** The formats this driver opens (LUKS: LUKS1 and LUKS2). */
    Set<VolumeFormat> formats();

    /**
     * The format {@code image}'s header shows by this driver's signature, or null: not this format,
     * or a format with no signature (TrueCrypt/VeraCrypt). Reads at absolute offsets; may move the
     * channel's position (the caller restores it).
     *
     * @param image the image
     * @param name the image's name in messages
     * @return the format, or null
     * @throws IOException when the image cannot be read
     */
    VolumeFormat probe(SeekableByteChannel image, String name) throws IOException;

    /**
     * The header's facts, without unlocking anything: what {@code cryptsetup luksDump}, {@code tcryptDump}
     * (which needs the secrets, so it is refused here), {@code bitlkDump} and {@code fvault2Dump} show.
     *
     * @param image the image, which the caller keeps open
     * @param name the image's name in messages
     * @return the header's facts
     * @throws IOException when the image cannot be read
     * @throws VolumeException when the header is corrupt or not this format
     */
    VolumeInfo info(SeekableByteChannel image, String name) throws IOException, VolumeException;

    /** The option names of {@link Secrets#given()} this format takes; any other is refused by name. */
    Set<String> takes(VolumeFormat format);

    /**
     * Opens the volume with {@code secrets}, which stay the caller's to wipe (a driver copies what
     * it keeps). Exactly one of {@code imagePath} and {@code imageChannel} is given.
     *
     * @param format the format, detected or named (one of {@link #formats()})
     * @param imagePath the image file, opened and closed with the volume; or null
     * @param imageChannel the image, which the caller keeps open; or null
     * @param secrets the secrets and options, only those of {@link #takes} given
     * @return the open volume
     * @throws IOException when the image, a key file or the header cannot be read
     * @throws VolumeException when the secret is wrong, the header corrupt, or the format unsupported
     */
    Volume open(VolumeFormat format, Path imagePath, SeekableByteChannel imageChannel, Secrets secrets)
            throws IOException, VolumeException;
}
