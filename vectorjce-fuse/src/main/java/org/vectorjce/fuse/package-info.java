/**
 * FUSE mounts through jfuse over the system's libfuse3: one volume's plaintext payload as a single
 * file ({@link org.vectorjce.fuse.VolumeMount}), and a file tree — any {@code java.nio.file.FileSystem}'s,
 * in practice a disk image's — read-only ({@link org.vectorjce.fuse.FileTreeMount}). Java 22 or
 * later; jfuse's platform module needs native access. Nothing else in the project loads this
 * package: the {@code volume mount} command checks the running Java first.
 */
package org.vectorjce.fuse;
