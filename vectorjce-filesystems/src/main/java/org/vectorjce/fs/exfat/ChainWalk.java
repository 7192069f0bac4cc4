package org.vectorjce.fs.exfat;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A position in a FAT cluster chain (exFAT specification, section 4.1): the index of a cluster in
 * its stream and the cluster's number, with Brent's cycle-detection state, so that a chain that
 * loops is found in constant memory within a few times the loop's length of steps. Mutable, for
 * one thread; {@link #copy()} makes the snapshot a stream keeps for its next read.
 */
final class ChainWalk {
    private final ExfatBootSector boot;
    private final ExfatFat fat;
    private final String what;
    long index;
    long cluster;
    private long saved;
    private long power = 1;
    private long steps;

    /** A walk at cluster 0 of the chain that starts at {@code first}; {@code what} names the stream. */
    ChainWalk(ExfatBootSector boot, ExfatFat fat, long first, String what) {
        this.boot = boot;
        this.fat = fat;
        this.what = what;
        this.cluster = first;
        this.saved = first;
    }

    ChainWalk copy() {
        ChainWalk w = new ChainWalk(boot, fat, cluster, what);
        w.index = index;
        w.saved = saved;
        w.power = power;
        w.steps = steps;
        return w;
    }

    /**
     * Moves to the next cluster, which the stream's size says exists.
     *
     * @param clusters the clusters the stream's size needs
     */
    void advance(long clusters) throws IOException {
        if (index + 1 >= clusters) {
            throw new CorruptFileSystemException(what + ": read past its " + clusters + " clusters", -1);
        }
        long next = fat.next(cluster);
        if (next == ExfatFat.END) {
            throw new CorruptFileSystemException(what + ": its cluster chain ends after " + (index + 1)
                    + " clusters, where its size needs " + clusters, boot.fatOffset + cluster * 4);
        }
        step(next);
    }

    /**
     * Moves to the next cluster or, at the chain's end mark, stays: for the root folder, whose length
     * only its chain gives.
     *
     * @return whether there was a next cluster
     */
    boolean advanceToEnd() throws IOException {
        long next = fat.next(cluster);
        if (next == ExfatFat.END) {
            return false;
        }
        step(next);
        return true;
    }

    private void step(long next) throws CorruptFileSystemException {
        if (next == saved) {
            throw new CorruptFileSystemException(what + ": its cluster chain loops back to cluster " + next,
                    boot.fatOffset + cluster * 4);
        }
        cluster = next;
        index++;
        // Brent: the saved cluster moves to the walker at each power of two steps
        if (++steps == power) {
            saved = next;
            power <<= 1;
            steps = 0;
        }
    }
}
