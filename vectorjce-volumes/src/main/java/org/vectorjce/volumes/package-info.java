/**
 * Disk-volume formats on top of the VectorJCE provider's sector path: the headers of LUKS,
 * TrueCrypt/VeraCrypt, BitLocker and FileVault 2 volumes parsed and checked, key derivation, and
 * a plaintext channel over the payload. The provider never depends on this package.
 */
package org.vectorjce.volumes;
