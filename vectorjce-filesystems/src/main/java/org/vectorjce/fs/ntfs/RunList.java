package org.vectorjce.fs.ntfs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The clusters of a non-resident attribute: its run lists decoded into (first VCN, length, LCN)
 * runs, LCN -1 for a sparse run (one with no offset field) that reads as zeros. A run list is a
 * series of a header byte (low nibble: bytes of the length; high nibble: bytes of the LCN offset),
 * the length (unsigned) and the offset (signed, from the previous run's LCN), ended by a 0 byte
 * (keramics ntfs.md "Data runs", TSK {@code ntfs_make_data_run}). An attribute split over several
 * records by $ATTRIBUTE_LIST has one extent per record, each covering its own VCN range: they are
 * joined here and must follow one another with neither gap nor overlap.
 */
final class RunList {
    /** The most runs one attribute may have: bounds memory at 24 bytes each. */
    static final int MAX_RUNS = 1 << 20;

    private long[] vcn = new long[8];
    private long[] len = new long[8];
    private long[] lcn = new long[8];
    private int count;
    private long totalVcns;

    private RunList() {
    }

    /**
     * The runs of {@code extents} (the same attribute's extents in any order) on a volume of
     * {@code clusters} clusters.
     */
    static RunList of(List<Attribute> extents, long clusters, String what) throws CorruptFileSystemException {
        List<Attribute> sorted = new ArrayList<>(extents);
        sorted.sort(Comparator.comparingLong(a -> a.startVcn));
        RunList r = new RunList();
        for (Attribute a : sorted) {
            if (a.resident) {
                throw new CorruptFileSystemException(what + ": a resident extent among non-resident ones", a.at);
            }
            if (a.startVcn != r.totalVcns) {
                throw new CorruptFileSystemException(what + ": extent starts at VCN " + a.startVcn + " where VCN "
                        + r.totalVcns + " was expected", a.at + 16);
            }
            r.decode(a, clusters, what);
        }
        return r;
    }

    private void decode(Attribute a, long clusters, String what) throws CorruptFileSystemException {
        byte[] b = a.runs;
        long next = a.startVcn;
        long prevLcn = 0;
        int p = 0;
        while (p < b.length && b[p] != 0) {
            int h = b[p] & 0xff;
            int ls = h & 0xF;
            int os = h >>> 4;
            if (ls == 0 || ls > 8 || os > 8 || p + 1 + ls + os > b.length) {
                throw new CorruptFileSystemException(what + ": run header 0x" + Integer.toHexString(h)
                        + " at its byte " + p + " is malformed", a.at);
            }
            long length = signed(b, p + 1, ls);
            if (length <= 0 || length > Long.MAX_VALUE / 4 - next) {
                throw new CorruptFileSystemException(what + ": run of " + length + " clusters", a.at);
            }
            long lcnHere = -1;
            if (os > 0) {
                prevLcn += signed(b, p + 1 + ls, os);
                if (prevLcn < 0 || prevLcn > clusters - length) {
                    throw new CorruptFileSystemException(what + ": run at LCN " + prevLcn + " of " + length
                            + " clusters passes the volume's " + clusters + " clusters", a.at);
                }
                lcnHere = prevLcn;
            }
            if (next > a.lastVcn + 1 - length) {
                throw new CorruptFileSystemException(what + ": runs pass the extent's last VCN " + a.lastVcn, a.at);
            }
            add(next, length, lcnHere, what, a.at);
            next += length;
            p += 1 + ls + os;
        }
        if (next != a.lastVcn + 1) {
            throw new CorruptFileSystemException(what + ": runs cover VCNs " + a.startVcn + " to " + (next - 1)
                    + ", the extent says " + a.lastVcn, a.at);
        }
        totalVcns = next;
    }

    private static long signed(byte[] b, int o, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = v << 8 | (b[o + i] & 0xff);
        }
        int shift = 64 - 8 * n;
        return shift == 0 ? v : v << shift >> shift;
    }

    private void add(long v, long l, long c, String what, long at) throws CorruptFileSystemException {
        if (count > 0 && lcn[count - 1] < 0 && c < 0) {
            len[count - 1] += l;
            return;
        }
        if (count == MAX_RUNS) {
            throw new CorruptFileSystemException(what + ": more than " + MAX_RUNS + " runs", at);
        }
        if (count == vcn.length) {
            int n = Math.min(MAX_RUNS, count * 2);
            vcn = Arrays.copyOf(vcn, n);
            len = Arrays.copyOf(len, n);
            lcn = Arrays.copyOf(lcn, n);
        }
        vcn[count] = v;
        len[count] = l;
        lcn[count] = c;
        count++;
    }

    /** The VCNs the runs cover, 0 to this. */
    long totalVcns() {
        return totalVcns;
    }

    /** The index of the run holding {@code v}, or -1 when no run does. */
    int find(long v) {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (vcn[mid] + len[mid] <= v) {
                lo = mid + 1;
            } else if (vcn[mid] > v) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    long vcn(int i) {
        return vcn[i];
    }

    long length(int i) {
        return len[i];
    }

    /** The run's first LCN, or -1 for a sparse run. */
    long lcn(int i) {
        return lcn[i];
    }
}
