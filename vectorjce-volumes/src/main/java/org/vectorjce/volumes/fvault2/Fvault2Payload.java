package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

import org.vectorjce.SectorCipher;
import org.vectorjce.volumes.internal.SectorPayload;

/**
 * The plaintext of a FileVault 2 logical volume, read-only, as cryptsetup maps it
 * ({@code lib/fvault2/fvault2.c}, {@code _activate}, and {@code crypt_get_data_offset}): one
 * {@code aes-xts-plain64} segment of {@code size / 512} sectors whose ciphertext starts at the
 * logical volume's offset in the image, with IV offset 0, so the tweak of each 512-byte sector is
 * its number from the logical volume's start (Core Storage's sector numbering). The provider's
 * sector API decrypts. Not thread-safe; closing wipes the key schedules and leaves the image open
 * (the volume owns it).
 */
final class Fvault2Payload extends SectorPayload {
    static final int SECTOR = 512;

    private final SeekableByteChannel image;
    private final long offset;
    private final SectorCipher cipher;

    Fvault2Payload(SeekableByteChannel image, long offset, long size, SectorCipher cipher) {
        super(size / SECTOR * SECTOR, SECTOR, false);
        this.image = image;
        this.offset = offset;
        this.cipher = cipher;
    }

    @Override
    protected void readCiphertext(long at, ByteBuffer dst) throws IOException {
        readFully(image, offset + at, dst);
    }

    @Override
    protected void decrypt(byte[] b, int off, int len, long sector) {
        cipher.decrypt(sector, b, off, len);
    }

    @Override
    protected void wipe() {
        cipher.close();
    }
}
