/**
 * BitLocker volumes (Windows 7 and later, BitLocker To Go), read-only: {@link
 * org.vectorjce.volumes.bitlk.BitlkVolume} opens one with a password, a recovery password, a
 * startup key ({@code .BEK}), its clear key or the volume key, and gives its plaintext as cryptsetup's
 * {@code bitlkOpen} maps it; {@link org.vectorjce.volumes.bitlk.BitlkInfo} is what {@code bitlkDump}
 * prints. The format as cryptsetup's {@code lib/bitlk} reads it, with libbde's and dislocker's
 * documentation of the FVE metadata. Beyond cryptsetup, a volume whose conversion was paused is read
 * (decrypted below the metadata's encrypted size, as stored past it); encrypt-on-write volumes are
 * refused by name ({@link org.vectorjce.volumes.bitlk.BitlkInfo#activationProblem}).
 */
package org.vectorjce.volumes.bitlk;
