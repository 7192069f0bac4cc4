package org.vectorjce;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Objects;

/**
 * Many disk sectors per call, each its own data unit with the IV that a Linux dm-crypt IV
 * generator gives it: {@code Cipher.init(mode, key, new SectorParameterSpec("plain64", 2048, 512))}
 * on {@code AES|Twofish|Serpent/XTS/NoPadding}, {@code AES|Twofish|Serpent/LRW/NoPadding} or
 * {@code AES|Twofish|Serpent/CBC/NoPadding}. Input is then a whole number of sectors; the i-th sector of
 * the message (counting from 0 after {@code init} and after every {@code doFinal}) is one XTS data
 * unit, one LRW run or one CBC message, with the IV of sector number
 * <pre>
 *   n = firstSector + i                         when ivLargeSectors
 *   n = (firstSector + i) × sectorSize / 512    otherwise (dm-crypt's default)
 * </pre>
 * as unsigned 64-bit arithmetic, wrapping. {@code firstSector} counts units of {@code sectorSize}.
 *
 * <p>IV generators, as {@code drivers/md/dm-crypt.c} defines them ({@code crypt_iv_*_gen}):
 * <ul>
 *   <li>{@code plain}: n mod 2^32, little-endian, zero-padded;</li>
 *   <li>{@code plain64}: n, 64-bit little-endian, zero-padded;</li>
 *   <li>{@code plain64be}: n, 64-bit big-endian in the last 8 bytes;</li>
 *   <li>{@code essiv:sha256}: {@code plain64} encrypted with the same block cipher under
 *       SHA-256(key) as its key (CBC only);</li>
 *   <li>{@code benbi}: (n &lt;&lt; 5) + 1, big-endian in the last 8 bytes: the 1-based index of the
 *       sector's first 16-byte block, for LRW;</li>
 *   <li>{@code null}: zeros.</li>
 * </ul>
 * Which transformation takes which: XTS {@code plain}, {@code plain64}, {@code plain64be},
 * {@code null}; LRW {@code benbi}, {@code plain64be}, {@code null}; CBC/NoPadding
 * {@code essiv:sha256}, {@code plain}, {@code plain64}, {@code null}. Anything else, or a sector
 * size other than 512, 1024, 2048 or 4096, makes {@code init} throw
 * {@code InvalidAlgorithmParameterException} naming what is wrong.
 *
 * <p>{@code update} may split the input anywhere and outputs whole sectors; {@code doFinal} with
 * a partial sector throws {@code IllegalBlockSizeException} and consumes nothing (the buffered
 * bytes stay, the call can be repeated with the rest). After {@code doFinal} the cipher restarts
 * at {@code firstSector}, as every JCA cipher restarts at its IV. Immutable.
 */
public final class SectorParameterSpec implements AlgorithmParameterSpec {
    private final String ivGenerator;
    private final long firstSector;
    private final int sectorSize;
    private final boolean ivLargeSectors;

    /**
     * A spec with dm-crypt's default IV counting: the IV sector number is in 512-byte units.
     *
     * @param ivGenerator the dm-crypt IV generator's name, e.g. {@code plain64}
     * @param firstSector the first sector of each message, in units of {@code sectorSize} (unsigned)
     * @param sectorSize bytes per sector: 512, 1024, 2048 or 4096 ({@code init} checks it)
     * @throws NullPointerException if {@code ivGenerator} is null
     */
    public SectorParameterSpec(String ivGenerator, long firstSector, int sectorSize) {
        this(ivGenerator, firstSector, sectorSize, false);
    }

    /**
     * A spec whose IV sector number counts units of {@code sectorSize} when {@code ivLargeSectors}
     * (dm-crypt's {@code iv_large_sectors}).
     *
     * @param ivGenerator the dm-crypt IV generator's name, e.g. {@code plain64}
     * @param firstSector the first sector of each message, in units of {@code sectorSize} (unsigned)
     * @param sectorSize bytes per sector: 512, 1024, 2048 or 4096 ({@code init} checks it)
     * @param ivLargeSectors whether the IV sector number counts sectors of {@code sectorSize}
     *     rather than 512 bytes
     * @throws NullPointerException if {@code ivGenerator} is null
     */
    public SectorParameterSpec(String ivGenerator, long firstSector, int sectorSize, boolean ivLargeSectors) {
        this.ivGenerator = Objects.requireNonNull(ivGenerator, "ivGenerator");
        this.firstSector = firstSector;
        this.sectorSize = sectorSize;
        this.ivLargeSectors = ivLargeSectors;
    }

    /**
     * The dm-crypt IV generator's name.
     *
     * @return the name, e.g. {@code plain64}
     */
    public String getIvGenerator() {
        return ivGenerator;
    }

    /**
     * The first sector of each message.
     *
     * @return the sector number, in units of {@link #getSectorSize()} (unsigned)
     */
    public long getFirstSector() {
        return firstSector;
    }

    /**
     * Bytes per sector.
     *
     * @return the sector size as given to the constructor (a cipher takes 512, 1024, 2048 or 4096)
     */
    public int getSectorSize() {
        return sectorSize;
    }

    /**
     * Whether the IV sector number counts sectors of {@link #getSectorSize()} rather than 512 bytes.
     *
     * @return dm-crypt's {@code iv_large_sectors}
     */
    public boolean isIvLargeSectors() {
        return ivLargeSectors;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SectorParameterSpec s && s.ivGenerator.equals(ivGenerator)
                && s.firstSector == firstSector && s.sectorSize == sectorSize && s.ivLargeSectors == ivLargeSectors;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ivGenerator, firstSector, sectorSize, ivLargeSectors);
    }

    @Override
    public String toString() {
        return "SectorParameterSpec[" + ivGenerator + ", first sector " + Long.toUnsignedString(firstSector)
                + ", " + sectorSize + "-byte sectors" + (ivLargeSectors ? ", iv_large_sectors" : "") + "]";
    }
}
