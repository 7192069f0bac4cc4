package org.vectorjce.volumes.nbd;

import java.io.IOException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * The one export a server offers: a volume's plaintext, with the facts the handshake advertises
 * (name, size, transmission flags, block sizes) and the rules transmission keeps. Shared by every
 * connection of the server.
 *
 * <p>Each connection reads and writes its own {@link Device} of the volume ({@link #open()});
 * reads share {@link #readLock()} and writes take {@link #writeLock()} across all of them, so a
 * write that was answered is seen by every later read of any connection, which is what
 * {@code NBD_FLAG_CAN_MULTI_CONN} promises ("Transmission flags" of {@code doc/proto.md}).
 */
final class Export {
    private final Volume volume;
    private final String name;
    private final long size;
    private final boolean readOnly;
    private final int maxRequest;
    private final ReadWriteLock io = new ReentrantReadWriteLock();

    Export(Volume volume, String name, boolean readOnly, int maxRequest) {
        this.volume = volume;
        this.name = name;
        this.size = volume.payloadSize();
        this.readOnly = readOnly || volume.readOnly();
        this.maxRequest = maxRequest;
    }

    /** The export's name; {@code ""} is the default export. */
    String name() {
        return name;
    }

    /** Whether a client that names {@code requested} gets this export: its name, or none ("" asks for the default). */
    boolean answersTo(String requested) {
        return requested.isEmpty() || requested.equals(name);
    }

    /** Bytes of the export: the volume's plaintext. */
    long size() {
        return size;
    }

    /** Whether writes, trims and zeroes are refused. */
    boolean readOnly() {
        return readOnly;
    }

    /** The longest read or write served. */
    int maxRequest() {
        return maxRequest;
    }

    /** The volume's sector: any length works (a partial sector is read, merged and written back), a sector is efficient. */
    int preferredBlock() {
        return volume.sectorSize();
    }

    /** What {@code NBD_INFO_DESCRIPTION} says: the format and the cipher, nothing secret. */
    String description() {
        return volume.info().format().typeName() + " " + volume.info().cipherSpec();
    }

    /**
     * The transmission flags ("Transmission flags" of {@code doc/proto.md}): flush, FUA, trim and
     * write zeroes are served, several connections see each other's writes, read-only when so.
     */
    int transmissionFlags() {
        return Nbd.TF_HAS_FLAGS | Nbd.TF_SEND_FLUSH | Nbd.TF_SEND_FUA | Nbd.TF_SEND_TRIM | Nbd.TF_SEND_WRITE_ZEROES
                | Nbd.TF_CAN_MULTI_CONN | (readOnly ? Nbd.TF_READ_ONLY : 0);
    }

    /** A device over the volume's plaintext for one connection; the connection closes it. */
    Device open() throws IOException, VolumeException {
        return volume.device();
    }

    /**
     * Makes every write so far durable: {@code device}'s own {@link Device#flush()} and the
     * volume's {@link Volume#flush()} (the image under every device of the volume), so that
     * {@code NBD_CMD_FLUSH} covers the writes of all connections ("Ordering of messages and
     * writes" of {@code doc/proto.md}).
     */
    void flush(Device device) throws IOException {
        device.flush();
        volume.flush();
    }

    /** Held by every read of any connection. */
    Lock readLock() {
        return io.readLock();
    }

    /** Held by every write of any connection. */
    Lock writeLock() {
        return io.writeLock();
    }
}
