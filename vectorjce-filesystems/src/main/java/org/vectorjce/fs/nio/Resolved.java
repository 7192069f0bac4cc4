package org.vectorjce.fs.nio;

import org.vectorjce.fs.spi.Node;

/**
 * What a path names after {@link Resolver} walked it: a node, or one named stream of a node.
 *
 * @param node the file, folder or (not followed) link
 * @param stream the named stream's name as stored, or {@code null} for the node itself
 * @param streamSize the named stream's bytes (0 without one)
 * @param realPath the absolute path with the names as stored on the disk, links resolved
 *     (a stream's as {@code "/dir/file:stream"})
 */
record Resolved(Node node, String stream, long streamSize, String realPath) {
    /** Bytes of what the path names: the stream's, or the node's main stream's. */
    long size() {
        return stream != null ? streamSize : node.size();
    }
}
