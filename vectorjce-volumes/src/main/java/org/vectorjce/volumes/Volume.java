package org.vectorjce.volumes;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import org.vectorjce.device.Device;

/**
 * An unlocked volume of any format: its header's facts, its plaintext payload as a channel, and its
 * key. {@link Volumes#open(java.nio.file.Path)} detects the format and unlocks it; each format's
 * own class ({@code LuksVolume}, {@code TcryptVolume}, {@code BitlkVolume}, {@code Fvault2Volume})
 * implements this interface and adds what only it has (LUKS key slots, BitLocker's protector).
 * No other class implements it. (It is not a {@code sealed} interface: the four formats live in
 * packages of their own, which a sealed hierarchy allows only in a named module, and the jar is
 * used on the class path too.)
 *
 * <p>{@link #close()} wipes the key material and closes every channel the volume opened,
 * payloads included; the image channel the caller handed in stays open.
 */
public interface Volume extends Closeable {
    /** The header's facts; {@link VolumeInfo#format()} says which format this is. */
    VolumeInfo info();

    /** Bytes of plaintext the payload holds. */
    long payloadSize();

    /** Bytes of one encryption sector: the header's ({@link VolumeInfo#sectorSize()}). */
    default int sectorSize() {
        return info().sectorSize();
    }

    /**
     * Whether the payload refuses writes: always for BitLocker and FileVault 2 here (the default),
     * for LUKS and TrueCrypt/VeraCrypt unless they were opened for writing.
     */
    default boolean readOnly() {
        return true;
    }

    /**
     * A new channel over the plaintext payload, at position 0: the stream view of {@link #device()}
     * (the provider's {@code SectorChannel}, whose {@code read}/{@code write} are its positional calls
     * at the channel's position). It writes only where {@link #readOnly()} is false.
     *
     * @throws IOException when the image cannot be read
     * @throws VolumeException when the volume's payload cannot be reached (a layout this library does not do)
     */
    SeekableByteChannel payload() throws IOException, VolumeException;

    /**
     * The plaintext payload as a positional {@link Device} (offset 0 is the payload's first byte), for
     * readers that take one: the filesystems, servers. Many threads may read it at once, each read
     * with a cipher of its own and, on an image file, without a lock. It writes only where
     * {@link #readOnly()} is false; its alignment is {@link #sectorSize()}. Closing it leaves the
     * volume open; closing the volume closes it.
     *
     * @throws IOException when the image cannot be read
     * @throws VolumeException when the volume's payload cannot be reached
     */
    Device device() throws IOException, VolumeException;

    /**
     * Makes every write made so far through this volume's payload channels durable: the image's
     * {@code force(true)}. Does nothing for a volume opened read-only (the default, for the formats
     * this library only reads).
     *
     * @throws IOException when the image cannot be synced
     */
    default void flush() throws IOException {
    }

    /** A copy of the volume key: the caller wipes it. */
    byte[] volumeKey();

    @Override
    void close() throws IOException;
}
