package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.BlockCache;
import org.vectorjce.fs.spi.Checks;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * An NTFS 3.x volume, read-only. Open reads the boot sector, MFT record 0 (whose $DATA run list
 * says where every other record is: the MFT may be fragmented, and its own $ATTRIBUTE_LIST is
 * followed), $UpCase (record 10, for name comparison), $Volume's name (record 3) and $Bitmap's
 * free clusters (record 6). Records and index blocks are read through a {@link BlockCache}; file
 * data is read straight from the device. The root is record 5.
 *
 * <p>As Windows shows a folder: the metadata files ($MFT ... $Extend, records below 16 whose names
 * start with '$') and the root's own "." entry are not listed, nor are DOS 8.3 twins (namespace 2)
 * of long names; lookup still finds an 8.3 name.
 */
final class NtfsFileSystem implements DiskFs {
    static final long ROOT = 5;
    static final long VOLUME = 3;
    static final long BITMAP = 6;
    static final long UPCASE = 10;
    /** First record that is not a metadata file. */
    static final long FIRST_USER = 16;

    private static final int DOS_MASK = Node.READ_ONLY | Node.HIDDEN | Node.SYSTEM | Node.ARCHIVE;
    private static final int FILE_ATTRIBUTE_SYSTEM = 0x0004;
    private static final int FILE_ATTRIBUTE_REPARSE = 0x0400;

    final Device device;
    final BootSector boot;
    final BlockCache cache;
    // set while the constructor reads the MFT's own run list, then never again
    private volatile StreamContent mft;
    private volatile long recordCount;
    volatile UpCase upcase;
    private final String label;
    /** Free bytes, counted at the first {@link #info()}; -2 until then. */
    private long freeBytes = -2;
    private final NtfsNode root;

    NtfsFileSystem(Device device, BootSector boot) throws IOException {
        this.device = device;
        this.boot = boot;
        int bs = Math.max(4096, boot.recordSize());
        this.cache = new BlockCache(device, bs, Math.max(16, (4 << 20) / bs));
        if (boot.clusterCount() > device.size() / boot.clusterSize()) {
            throw new CorruptFileSystemException("NTFS: the volume's " + boot.clusterCount() + " clusters pass the "
                    + device.size() + "-byte device", 40);
        }
        this.upcase = UpCase.load(null);
        bootstrapMft();
        this.upcase = UpCase.load(MftFile.open(this, UPCASE).content(Attribute.DATA, "", this::readDevice));
        this.label = readLabel();
        NtfsNode r = node(ROOT, "");
        if (r.kind() != Kind.DIRECTORY) {
            throw new CorruptFileSystemException("NTFS: the root, MFT record 5, is not a folder", recordOffset(ROOT));
        }
        this.root = r;
    }

    /**
     * Reads $MFT's own run list in two steps: the extent in record 0 (which, per NTFS's layout,
     * maps at least the records holding the rest), then every extent through its attribute list.
     */
    private void bootstrapMft() throws IOException {
        long at = boot.mftLcn() * boot.clusterSize();
        byte[] b = cache.read(at, boot.recordSize(), "NTFS: MFT record 0");
        MftRecord r0 = MftRecord.parse(b, 0, at);
        List<Attribute> first = new ArrayList<>();
        for (Attribute a : r0.attributes) {
            if (a.type == Attribute.DATA && a.name.isEmpty() && a.startVcn == 0) {
                first.add(a);
            }
        }
        if (first.size() != 1 || first.get(0).resident) {
            throw new CorruptFileSystemException("NTFS: MFT record 0 has no non-resident $DATA from VCN 0", at);
        }
        // until the whole run list is known, the first extent bounds the records reachable
        mft = StreamContent.firstExtent(first.get(0), boot.clusterSize(), boot.clusterCount(), this::readCached,
                "NTFS: $MFT $DATA");
        recordCount = mft.size() / boot.recordSize();
        mft = MftFile.open(this, 0).content(Attribute.DATA, "", this::readCached);
        recordCount = mft.size() / boot.recordSize();
        if (recordCount < FIRST_USER) {
            throw new CorruptFileSystemException("NTFS: the MFT holds " + recordCount + " records, fewer than the "
                    + FIRST_USER + " metadata files", at);
        }
    }

    private String readLabel() throws IOException {
        Attribute a = MftFile.open(this, VOLUME).first(Attribute.VOLUME_NAME, "");
        if (a == null || !a.resident) {
            return "";
        }
        return Le.sanitize(Le.utf16(a.value, 0, a.value.length / 2));
    }

    /** Free bytes from $Bitmap: one bit a cluster, read 64 KiB at a time; -1 when it is too short. */
    private long countFree() throws IOException {
        StreamContent c = MftFile.open(this, BITMAP).content(Attribute.DATA, "", this::readDevice);
        long clusters = boot.clusterCount();
        long bytes = (clusters + 7) / 8;
        if (c == null || c.size() < bytes) {
            return -1;
        }
        byte[] buf = new byte[65536];
        long used = 0;
        for (long pos = 0; pos < bytes; pos += buf.length) {
            int n = (int) Math.min(buf.length, bytes - pos);
            ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
            while (bb.hasRemaining() && c.read(bb, pos + bb.position()) > 0) {
                // until the chunk is full
            }
            for (int i = 0; i < n; i++) {
                int v = buf[i] & 0xff;
                long bit0 = (pos + i) * 8;
                if (bit0 + 8 > clusters) {
                    v &= (1 << (int) (clusters - bit0)) - 1;
                }
                used += Integer.bitCount(v);
            }
        }
        return (clusters - used) * boot.clusterSize();
    }

    /** Reads device bytes for file data, after checking they lie within the device. */
    void readDevice(ByteBuffer dst, long offset) throws IOException {
        Checks.within(offset, dst.remaining(), device.size(), "NTFS: data");
        device.readFully(dst, offset);
    }

    /** Reads metadata bytes through the cache. */
    void readCached(ByteBuffer dst, long offset) throws IOException {
        int n = dst.remaining();
        if (dst.hasArray()) {
            cache.read(offset, dst.array(), dst.arrayOffset() + dst.position(), n, "NTFS: metadata");
        } else {
            dst.put(cache.read(offset, n, "NTFS: metadata"));
            return;
        }
        dst.position(dst.position() + n);
    }

    /** The device offset of record {@code n}, for messages (-1 when unmapped). */
    long recordOffset(long n) {
        return mft == null ? -1 : mft.deviceOffset(n * boot.recordSize());
    }

    /** MFT record {@code n}, fix-ups applied. */
    MftRecord record(long n) throws IOException {
        if (n < 0 || n >= recordCount) {
            throw new CorruptFileSystemException("NTFS: MFT record " + n + " is past the MFT's " + recordCount
                    + " records", -1);
        }
        long pos = n * boot.recordSize();
        byte[] b = new byte[boot.recordSize()];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (mft.read(bb, pos + bb.position()) < 0) {
                throw new CorruptFileSystemException("NTFS: MFT record " + n + " passes the MFT's end", -1);
            }
        }
        return MftRecord.parse(b, n, recordOffset(n));
    }

    /** 100 ns intervals since 1601 as an exact {@link FileTime}. */
    static FileTime filetime(long ticks) {
        long secs = Math.floorDiv(ticks, 10_000_000L) - 11_644_473_600L;
        long nanos = Math.floorMod(ticks, 10_000_000L) * 100;
        return FileTime.from(Instant.ofEpochSecond(secs, nanos));
    }

    /** The node for record {@code number}, called {@code name} in the folder it was found in. */
    NtfsNode node(long number, String name) throws IOException {
        return node(MftFile.open(this, number), name);
    }

    private NtfsNode node(MftFile f, String name) throws IOException {
        long number = f.number();
        Attribute si = f.first(Attribute.STANDARD_INFORMATION, "");
        if (si == null || !si.resident || si.value.length < 0x24) {
            throw new CorruptFileSystemException("NTFS: MFT record " + number + " has no $STANDARD_INFORMATION",
                    recordOffset(number));
        }
        byte[] s = si.value;
        int attrs = (int) Le.u32(s, 0x20);
        Attribute data = f.first(Attribute.DATA, "");
        long size = data == null ? 0 : data.dataSize;
        Kind kind = (f.base.flags & MftRecord.DIRECTORY) != 0 ? Kind.DIRECTORY : Kind.FILE;
        NtfsNode.LinkForm link = NtfsNode.LinkForm.NONE;
        if ((attrs & FILE_ATTRIBUTE_REPARSE) != 0) {
            StreamContent rp = f.content(Attribute.REPARSE_POINT, "", this::readDevice);
            long tag = rp == null ? 0 : Reparse.tag(head(rp, 8));
            if (Reparse.isLink(tag)) {
                kind = Kind.SYMLINK;
                link = NtfsNode.LinkForm.REPARSE;
            } else if (Reparse.isSpecial(tag)) {
                kind = Kind.OTHER;
            }
        } else if (kind == Kind.FILE && (attrs & FILE_ATTRIBUTE_SYSTEM) != 0 && data != null && size <= Reparse.MAX) {
            byte[] head = head(open(f, ""), 8);
            if (size > 8 && Reparse.isInterixLink(head)) {
                kind = Kind.SYMLINK;
                link = NtfsNode.LinkForm.INTERIX;
            } else if (Reparse.isInterixSpecial(head, size)) {
                kind = Kind.OTHER;
            }
        }
        if (kind == Kind.DIRECTORY) {
            size = 0;
        }
        return new NtfsNode(name, kind, size, filetime(Le.s64(s, 8)), filetime(Le.s64(s, 0x18)),
                filetime(Le.s64(s, 0)), attrs & DOS_MASK, number, link);
    }

    /** The first {@code n} bytes of {@code c} (fewer when it is shorter). */
    private static byte[] head(StreamContent c, int n) throws IOException {
        byte[] b = new byte[(int) Math.min(n, c.size())];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining() && c.read(bb, bb.position()) > 0) {
            // until full
        }
        return b;
    }

    /** The facts; free space is counted from $Bitmap the first time (-1 when $Bitmap cannot be read). */
    @Override
    public FsInfo info() {
        long free;
        synchronized (this) {
            if (freeBytes == -2) {
                try {
                    freeBytes = countFree();
                } catch (IOException e) {
                    freeBytes = -1;
                }
            }
            free = freeBytes;
        }
        return new FsInfo("NTFS", label, boot.serialText(), boot.clusterSize(),
                boot.clusterCount() * boot.clusterSize(), free);
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean caseSensitive() {
        return false;
    }

    private NtfsNode folder(Node dir) throws IOException {
        if (!(dir instanceof NtfsNode n) || !dir.isDirectory()) {
            throw new NotDirectoryException(dir.name());
        }
        return n;
    }

    /** Whether a folder's entry is one Windows does not show. */
    private static boolean hidden(NtfsNode dir, Index.Entry e) {
        if (e.namespace() == 2 || e.name().equals(".") || e.name().equals("..") || e.name().isEmpty()) {
            return true;
        }
        return dir.record == ROOT && e.record() < FIRST_USER && e.name().startsWith("$");
    }

    @Override
    public NodeStream list(Node dir) throws IOException {
        NtfsNode d = folder(dir);
        Index.Iterator it = Index.open(this, MftFile.open(this, d.record)).iterator();
        return () -> {
            for (Index.Entry e = it.next(); e != null; e = it.next()) {
                if (!hidden(d, e)) {
                    return entryNode(d, e);
                }
            }
            return null;
        };
    }

    /**
     * The node an index entry of folder {@code dir} names, after checking the entry's sequence
     * number against the record's (a stale entry names a reused record). An 8.3 name found by
     * lookup is given as the file's long name in that folder.
     */
    private NtfsNode entryNode(NtfsNode dir, Index.Entry e) throws IOException {
        MftFile f = MftFile.open(this, e.record());
        if (e.sequence() != 0 && f.base.sequence != e.sequence()) {
            throw new CorruptFileSystemException("NTFS: index entry \"" + Le.sanitize(e.name()) + "\" names sequence "
                    + e.sequence() + " of MFT record " + e.record() + ", which is at " + f.base.sequence,
                    recordOffset(e.record()));
        }
        String name = e.name();
        if (e.namespace() == 2) {
            for (Attribute a : f.find(Attribute.FILE_NAME)) {
                byte[] v = a.value;
                if (a.resident && v.length >= 0x42 && (Le.s64(v, 0) & 0xFFFFFFFFFFFFL) == dir.record
                        && Le.u8(v, 0x41) != 2 && 0x42 + 2 * Le.u8(v, 0x40) <= v.length) {
                    name = Le.utf16(v, 0x42, Le.u8(v, 0x40));
                    break;
                }
            }
        }
        return node(f, Le.sanitize(name));
    }

    @Override
    public Node lookup(Node dir, String name) throws IOException {
        NtfsNode d = folder(dir);
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            return null;
        }
        Index.Entry e = Index.open(this, MftFile.open(this, d.record)).lookup(name);
        if (e == null || (d.record == ROOT && e.record() < FIRST_USER && e.name().startsWith("$"))
                || e.name().equals(".")) {
            return null;
        }
        return entryNode(d, e);
    }

    private StreamContent open(MftFile f, String stream) throws IOException {
        return f.content(Attribute.DATA, stream, this::readDevice);
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        if (!(file instanceof NtfsNode n)) {
            throw new NoSuchFileException(file.name());
        }
        if (n.isDirectory() && stream == null) {
            throw new IOException(file.name() + " is a folder");
        }
        StreamContent c = open(MftFile.open(this, n.record), stream == null ? "" : stream);
        if (c == null) {
            if (stream == null) {
                return StreamContent.empty();
            }
            throw new NoSuchFileException(file.name() + ":" + stream);
        }
        return c;
    }

    @Override
    public List<StreamInfo> streams(Node file) throws IOException {
        if (!(file instanceof NtfsNode n)) {
            return List.of();
        }
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (Attribute a : MftFile.open(this, n.record).find(Attribute.DATA)) {
            if (!a.name.isEmpty() && a.startVcn == 0) {
                sizes.put(Le.sanitize(a.name), a.dataSize);
            }
        }
        List<StreamInfo> out = new ArrayList<>();
        sizes.forEach((k, v) -> out.add(new StreamInfo(k, v)));
        return out;
    }

    @Override
    public String readLink(Node link) throws IOException {
        if (!(link instanceof NtfsNode n) || n.linkForm == NtfsNode.LinkForm.NONE) {
            throw new NotLinkException(link.name());
        }
        MftFile f = MftFile.open(this, n.record);
        if (n.linkForm == NtfsNode.LinkForm.REPARSE) {
            StreamContent rp = f.content(Attribute.REPARSE_POINT, "", this::readDevice);
            if (rp == null || rp.size() > Reparse.MAX) {
                throw new CorruptFileSystemException("NTFS: reparse point of MFT record " + n.record
                        + " is missing or too large", recordOffset(n.record));
            }
            return Reparse.target(head(rp, (int) rp.size()), recordOffset(n.record));
        }
        StreamContent c = open(f, "");
        if (c == null || c.size() > Reparse.MAX) {
            throw new CorruptFileSystemException("NTFS: Interix link of MFT record " + n.record + " is too large",
                    recordOffset(n.record));
        }
        return Reparse.interixTarget(head(c, (int) c.size()));
    }

    @Override
    public void close() {
        // the device stays the caller's; nothing else is held
    }
}
