/**
 * FileVault 2 volumes (Core Storage, macOS 10.7 to 10.12), read-only: {@link
 * org.vectorjce.volumes.fvault2.Fvault2Volume} opens one with its passphrase or its volume key and
 * gives the logical volume's plaintext as cryptsetup's {@code open --type fvault2} maps it; {@link
 * org.vectorjce.volumes.fvault2.Fvault2Info} is what {@code fvault2Dump} prints. The format as
 * cryptsetup's {@code lib/fvault2} reads it, with libfvde's "FileVault Drive Encryption (FVDE)
 * format" document; the key bag's XML through the JDK's parser with DTDs and external entities off.
 */
package org.vectorjce.volumes.fvault2;
