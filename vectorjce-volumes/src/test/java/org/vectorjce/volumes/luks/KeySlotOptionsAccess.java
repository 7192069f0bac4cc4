package org.vectorjce.volumes.luks;

/** The KDF defaults {@link KdfCost} computes, for tests in other packages. */
public final class KeySlotOptionsAccess {
    private KeySlotOptionsAccess() {
    }

    public static int defaultParallel() {
        return KdfCost.defaultParallel();
    }

    public static long defaultMemoryKib() {
        return KdfCost.defaultMaxMemoryKib();
    }
}
