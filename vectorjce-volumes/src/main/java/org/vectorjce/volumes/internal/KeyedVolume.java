package org.vectorjce.volumes.internal;

import java.util.Arrays;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeInfo;

/**
 * What the formats opened by one volume key and read only (BitLocker, FileVault 2) share beyond
 * {@link VolumeLifecycle}: the header's facts, the key (wiped by the first {@code close()}), which
 * secret opened it, and the provider the payload's cipher comes from.
 *
 * @param <I> the format's information record
 */
public abstract class KeyedVolume<I extends VolumeInfo> extends VolumeLifecycle implements Volume {
    /** The header's facts. */
    protected final I info;
    /** The volume key, wiped by the first {@code close()}. */
    protected final byte[] key;
    /** The provider of the payload's cipher. */
    protected final VectorJceProvider provider;
    private final String opener;

    /** Over {@code images}, opened with {@code key} (kept, not copied) by the secret {@code opener} names. */
    protected KeyedVolume(ImageSource.Images images, I info, byte[] key, String opener, VectorJceProvider provider) {
        super(images);
        this.info = info;
        this.key = key;
        this.opener = opener;
        this.provider = provider;
    }

    /** The header's facts. */
    @Override
    public I info() {
        return info;
    }

    /**
     * Which secret opened the volume, as the format names it: BitLocker's {@code password},
     * {@code recovery password}, {@code startup key} or {@code clear key} (with the VMK's GUID), or
     * {@code volume key}; FileVault 2's {@code passphrase} or {@code volume key}.
     */
    public String openedWith() {
        return opener;
    }

    /** A copy of the volume key, as cryptsetup maps it and dumps it; the caller wipes it. */
    @Override
    public byte[] volumeKey() {
        ensureOpen();
        return key.clone();
    }

    /** Wipes the key; a format with more key material wipes it too and calls this. */
    @Override
    protected void wipe() {
        Arrays.fill(key, (byte) 0);
    }
}
