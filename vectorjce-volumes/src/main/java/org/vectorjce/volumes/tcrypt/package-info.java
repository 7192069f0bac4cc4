/**
 * TrueCrypt and VeraCrypt volumes, read-only: {@link org.vectorjce.volumes.tcrypt.TcryptVolume}
 * opens one (normal, backup, hidden or system header; password, keyfiles, PIM; cryptsetup's
 * {@code -h}/{@code -c} hints) and gives its plaintext as a {@code SeekableByteChannel}; the
 * {@code volume ... --type tcrypt} command is {@code org.vectorjce.tool.volume.TcryptCommands}. The format follows the "VeraCrypt Volume Format Specification" and VeraCrypt's
 * {@code src/Common/Volumes.c}; which KDFs and chains exist, and in what order they are tried, is
 * cryptsetup's {@code lib/tcrypt/tcrypt.c} table, one row per version. Every chain of that table
 * is read: AES, Twofish and Serpent (the provider's kernels) and their cascades in XTS and LRW;
 * Camellia and Kuznyechik (Bouncy Castle's engines under the module's {@code BlockCipherXts})
 * and their cascades in XTS; and TrueCrypt before 4.0, CBC with its sector IV and whitening
 * ({@code cbc-tcw}, the outer-CBC cascades {@code cbci-tcrypt}, the Blowfish chains
 * {@code cbc-tcrypt}; Blowfish, CAST5 and Triple DES from Bouncy Castle).
 *
 * <p>What is not done, plainly:
 * <ul>
 *   <li>Writing: no volume is created or changed, and the image is only ever opened for reading.</li>
 *   <li>VeraCrypt's boot-loader iteration counts (SHA-256 and BLAKE2s 200,000, RIPEMD-160 327,661)
 *       are tried only with {@code --tcrypt-system}; cryptsetup tries them for every volume.</li>
 *   <li>A system volume is read from the whole drive's image, or from a copy of its partition with
 *       the drive as {@code --header} when the header names that partition (system-partition
 *       encryption); a partition copy of a whole-drive encryption has no offset to count its data
 *       units from.</li>
 *   <li>Keyfile folders, security tokens and VeraCrypt's keyfile-search paths: a keyfile is a file.</li>
 * </ul>
 */
package org.vectorjce.volumes.tcrypt;
