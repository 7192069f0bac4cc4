/**
 * One volume's plaintext payload as a single file in a FUSE mount ({@link org.vectorjce.fuse.VolumeMount}),
 * through jfuse over the system's libfuse3. Java 22 or later; jfuse's platform module needs native
 * access. Nothing else in the project loads this package: the {@code volume mount} command checks
 * the running Java first.
 */
package org.vectorjce.fuse;
