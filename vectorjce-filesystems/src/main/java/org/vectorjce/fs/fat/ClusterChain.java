package org.vectorjce.fs.fat;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The cluster chain of one file, walked lazily through the FAT and remembered in bounded memory,
 * so that reading a large file front to back walks each FAT entry once, and a read at an offset the
 * walk has passed before walks at most a stride of entries.
 *
 * <p>What it keeps: a cursor (the last cluster index reached and its cluster) and a mark every
 * {@code stride} clusters, at most {@value #MARKS} of them, filled in as the walk passes. A read at
 * or after the cursor walks on from it; one before it starts at the nearest mark below.
 *
 * <p>The chain must hold at least the clusters the file's size needs (a shorter one is a
 * {@link CorruptFileSystemException} naming the file and the FAT entry's offset), and is read no
 * further. It may hold more: Linux's {@code fallocate(FALLOC_FL_KEEP_SIZE)} on vfat leaves clusters
 * past the size. When a read reaches the last cluster the size needs, the rest of the chain is
 * followed once, with Brent's cycle detection, to its end mark (fatgen103: a chain ends with EOC):
 * a chain that loops (which never ends) or reaches a free, bad or out-of-range entry is corrupt.
 * That walk is at most the loop's length twice plus the tail, and never more than the cluster count.
 *
 * <p>Thread-safe: one lock guards the cursor and the marks.
 */
final class ClusterChain {
    private static final int MARKS = 1024;

    private final FatTable fat;
    private final String name;
    private final long clusters;
    private final long stride;
    private final long[] marks;
    private int marksKnown;
    private long cursorIndex;
    private long cursorCluster;
    private boolean endChecked;

    /**
     * @param first the first cluster, already checked to be a data cluster
     * @param clusters the clusters the file's size needs (1 or more, at most the cluster count)
     * @param name the file's name, for messages
     */
    ClusterChain(FatTable fat, long first, long clusters, String name) {
        this.fat = fat;
        this.name = name;
        this.clusters = clusters;
        this.stride = Math.max(1, (clusters + MARKS - 1) / MARKS);
        this.marks = new long[(int) ((clusters + stride - 1) / stride)];
        this.marks[0] = first;
        this.marksKnown = 1;
        this.cursorIndex = 0;
        this.cursorCluster = first;
    }

    /**
     * The cluster at index {@code index} of the chain and how many clusters from it on are
     * contiguous on the disk, at most {@code max} and never past the chain's end.
     *
     * @return {@code {cluster, count}}
     */
    synchronized long[] run(long index, long max) throws IOException {
        if (index < 0 || index >= clusters) {
            throw new IllegalArgumentException("cluster index " + index + " of " + clusters);
        }
        if (index < cursorIndex) {
            int m = (int) Math.min(index / stride, marksKnown - 1);
            cursorIndex = m * stride;
            cursorCluster = marks[m];
        }
        while (cursorIndex < index) {
            step();
        }
        long first = cursorCluster;
        long count = 1;
        long limit = Math.min(max, clusters - index);
        checkEnd();
        while (count < limit) {
            long before = cursorCluster;
            step();
            checkEnd();
            if (cursorCluster != before + 1) {
                break;
            }
            count++;
        }
        return new long[] {first, count};
    }

    /** Moves the cursor one cluster on, checking the entry it follows. */
    private void step() throws IOException {
        long c = cursorCluster;
        long v = fat.get(c);
        switch (fat.classify(v)) {
            case NEXT -> {
            }
            case END -> throw corrupt("its cluster chain ends after " + (cursorIndex + 1) + " clusters; its size needs "
                    + clusters, c);
            case FREE -> throw corrupt("its cluster chain reaches a free entry after cluster " + c, c);
            case BAD -> throw corrupt("its cluster chain reaches a bad-cluster mark after cluster " + c, c);
            default -> throw corrupt("its cluster chain leads from cluster " + c + " to " + v
                    + ", past the last cluster " + fat.boot().maxCluster(), c);
        }
        cursorIndex++;
        cursorCluster = v;
        if (cursorIndex % stride == 0) {
            int m = (int) (cursorIndex / stride);
            if (m == marksKnown) {
                marks[m] = v;
                marksKnown++;
            }
        }
    }

    /**
     * At the chain's last needed cluster, once: the rest of the chain must reach an end mark without
     * looping (Brent's algorithm: the tortoise jumps to the hare at each power of two of steps).
     */
    private void checkEnd() throws IOException {
        if (cursorIndex != clusters - 1 || endChecked) {
            return;
        }
        long tortoise = cursorCluster;
        long hare = cursorCluster;
        long power = 1;
        long lambda = 0;
        for (long steps = 0;; steps++) {
            long v = fat.get(hare);
            switch (fat.classify(v)) {
                case END -> {
                    endChecked = true;
                    return;
                }
                case NEXT -> {
                }
                case FREE -> throw corrupt("past its size, its cluster chain reaches a free entry after cluster "
                        + hare, hare);
                case BAD -> throw corrupt("past its size, its cluster chain reaches a bad-cluster mark after cluster "
                        + hare, hare);
                default -> throw corrupt("past its size, its cluster chain leads from cluster " + hare + " to " + v
                        + ", past the last cluster " + fat.boot().maxCluster(), hare);
            }
            if (steps >= fat.boot().clusterCount()) {
                throw corrupt("its cluster chain is longer than the volume's " + fat.boot().clusterCount()
                        + " clusters", hare);
            }
            hare = v;
            lambda++;
            if (hare == tortoise) {
                throw corrupt("its cluster chain loops (cluster " + hare + " comes again)", hare);
            }
            if (lambda == power) {
                tortoise = hare;
                power <<= 1;
                lambda = 0;
            }
        }
    }

    private CorruptFileSystemException corrupt(String what, long cluster) {
        return new CorruptFileSystemException("FAT: file \"" + name + "\" at cluster index " + cursorIndex + ": "
                + what, fat.entryOffset(cluster));
    }
}
