package org.vectorjce.volumes;

import java.util.List;

/**
 * What every format's header says in common. Each format's own record ({@code LuksInfo},
 * {@code TcryptInfo}, {@code BitlkInfo}, {@code Fvault2Info}) implements it and adds its details;
 * no other class does. Nothing here is secret.
 */
public interface VolumeInfo {
    /** The format, and for LUKS its version. */
    VolumeFormat format();

    /** Bytes of plaintext the payload holds. */
    long payloadSize();

    /** Bytes of one encryption sector (the unit of the IV or tweak). */
    int sectorSize();

    /** The payload's cipher in dm-crypt's form, e.g. {@code aes-xts-plain64} or, for a TrueCrypt chain, {@code aes-twofish-xts-plain64}. */
    String cipherSpec();

    /** The volume's UUID or GUID, or {@code ""} where the format has none (the default). */
    default String uuid() {
        return "";
    }

    /** The volume's label or description, or {@code ""} where it has none (the default). */
    default String label() {
        return "";
    }

    /** What the header had that is unusual but not wrong, one line each; empty when nothing (the default). */
    default List<String> warnings() {
        return List.of();
    }

    /**
     * The header as the format's cryptsetup dump ({@code luksDump}, {@code tcryptDump},
     * {@code bitlkDump}, {@code fvault2Dump}) lays it out, naming the image {@code device}; no
     * secret is in it.
     *
     * @param device how the text names the image (cryptsetup's device argument)
     * @return the text, one field a line, ending with a newline
     */
    String dump(String device);

    /**
     * What the format's cryptsetup dump prints with {@code --dump-volume-key}: the cipher, the
     * payload's place and the volume key {@code key} in hex. The text holds the key: the caller
     * decides where it may go.
     *
     * @param device how the text names the image (cryptsetup's device argument)
     * @param key the volume key, as {@link Volume#volumeKey()} gives it (not kept)
     * @return the text, ending with a newline
     */
    String dumpWithKey(String device, byte[] key);
}
