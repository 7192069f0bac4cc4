package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * A driver of nothing: a tree of nodes in memory, built by the test with the names, bytes, times,
 * links and named streams it then expects to read back through the {@code java.nio.file} layer.
 * It counts lookups and open listings so that tests see the cache and the stream closes.
 */
final class FakeDiskFs implements DiskFs {
    static final FileTime MTIME = FileTime.fromMillis(1_600_000_000_000L);
    static final FileTime ATIME = FileTime.fromMillis(1_600_000_100_000L);

    /** A node of the tree; its children, bytes, target and streams are the test's. */
    static final class FakeNode extends Node {
        final Map<String, FakeNode> children = new LinkedHashMap<>();
        final byte[] data;
        final String target;
        final Map<String, byte[]> streams = new LinkedHashMap<>();
        final int uid;
        final int mode;

        FakeNode(String name, Kind kind, byte[] data, String target, FileTime created, int dos, long key, int uid,
                int mode) {
            super(name, kind, data == null ? 0 : data.length, MTIME, ATIME, created, dos, key);
            this.data = data;
            this.target = target;
            this.uid = uid;
            this.mode = mode;
        }

        @Override
        public int uid() {
            return uid;
        }

        @Override
        public int gid() {
            return uid < 0 ? -1 : uid + 1;
        }

        @Override
        public int mode() {
            return mode;
        }
    }

    private final boolean caseSensitive;
    private final boolean posix;
    private final FakeNode root;
    private long nextKey = 2;
    final AtomicInteger lookups = new AtomicInteger();
    final AtomicInteger openListings = new AtomicInteger();
    volatile boolean closed;

    FakeDiskFs(boolean caseSensitive, boolean posix) {
        this.caseSensitive = caseSensitive;
        this.posix = posix;
        this.root = new FakeNode("", Kind.DIRECTORY, null, null, null, 0, 1, posix ? 0 : -1, posix ? 0755 : -1);
    }

    private FakeNode add(String path, Kind kind, byte[] data, String target, int dos, int mode) {
        int slash = path.lastIndexOf('/');
        FakeNode parent = (FakeNode) node(path.substring(0, slash));
        String name = path.substring(slash + 1);
        FakeNode n = new FakeNode(name, kind, data, target, kind == Kind.FILE ? FileTime.fromMillis(1_500_000_000_000L)
                : null, dos, nextKey++, posix ? 1000 : -1, posix ? mode : -1);
        parent.children.put(name, n);
        return n;
    }

    /** A child of any name (the fuzz target's hostile names: '/', NUL, "..", ""). */
    FakeNode child(FakeNode parent, String name, Kind kind, byte[] data, String target) {
        FakeNode n = new FakeNode(name, kind, data, target, null, 0, nextKey++, -1, -1);
        parent.children.put(name, n);
        return n;
    }

    FakeNode rootNode() {
        return root;
    }

    FakeDiskFs dir(String path) {
        add(path, Kind.DIRECTORY, null, null, 0, 0755);
        return this;
    }

    FakeDiskFs file(String path, byte[] data) {
        return file(path, data, Node.ARCHIVE, 0644);
    }

    FakeDiskFs file(String path, byte[] data, int dos, int mode) {
        add(path, Kind.FILE, data, null, dos, mode);
        return this;
    }

    FakeDiskFs link(String path, String target) {
        add(path, Kind.SYMLINK, null, target, 0, 0777);
        return this;
    }

    FakeDiskFs stream(String path, String stream, byte[] data) {
        ((FakeNode) node(path)).streams.put(stream, data);
        return this;
    }

    /** The node at a path of stored names (the test's own walk, no links). */
    Node node(String path) {
        FakeNode n = root;
        for (String name : path.split("/")) {
            if (!name.isEmpty()) {
                n = n.children.get(name);
            }
        }
        return n;
    }

    @Override
    public FsInfo info() {
        return new FsInfo("FAKE", "FAKELABEL", "1234-ABCD", 4096, 1 << 20, 1 << 19);
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean caseSensitive() {
        return caseSensitive;
    }

    @Override
    public NodeStream list(Node dir) throws IOException {
        if (!dir.isDirectory()) {
            throw new NotDirectoryException(dir.name());
        }
        List<FakeNode> entries = new ArrayList<>(((FakeNode) dir).children.values());
        openListings.incrementAndGet();
        return new NodeStream() {
            private int i;
            private boolean open = true;

            @Override
            public Node next() {
                return open && i < entries.size() ? entries.get(i++) : null;
            }

            @Override
            public void close() {
                if (open) {
                    open = false;
                    openListings.decrementAndGet();
                }
            }
        };
    }

    @Override
    public Node lookup(Node dir, String name) {
        lookups.incrementAndGet();
        for (FakeNode n : ((FakeNode) dir).children.values()) {
            if (caseSensitive ? n.name().equals(name) : n.name().equalsIgnoreCase(name)) {
                return n;
            }
        }
        return null;
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        FakeNode f = (FakeNode) file;
        if (f.isDirectory() && stream == null) {
            throw new IOException(f.name() + " is a folder");
        }
        byte[] data = stream == null ? f.data : f.streams.get(stream);
        if (data == null) {
            throw new NoSuchFileException(f.name() + ":" + stream);
        }
        return new Content() {
            @Override
            public long size() {
                return data.length;
            }

            @Override
            public int read(ByteBuffer dst, long position) {
                if (position >= data.length) {
                    return dst.hasRemaining() ? -1 : 0;
                }
                // at most 1000 bytes a call, so that callers' loops are exercised
                int n = (int) Math.min(Math.min(dst.remaining(), 1000), data.length - position);
                dst.put(data, (int) position, n);
                return n;
            }
        };
    }

    @Override
    public List<StreamInfo> streams(Node file) {
        List<StreamInfo> out = new ArrayList<>();
        ((FakeNode) file).streams.forEach((k, v) -> out.add(new StreamInfo(k, v.length)));
        return out;
    }

    @Override
    public String readLink(Node link) throws IOException {
        if (link.kind() != Kind.SYMLINK) {
            throw new NotLinkException(link.name());
        }
        return ((FakeNode) link).target;
    }

    @Override
    public void close() {
        closed = true;
    }
}
