package org.vectorjce.volumes.tcrypt;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.Argon2;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;
import org.vectorjce.volumes.kdf.Workers;

/**
 * Walks the (KDF row × cipher chain) table for one 512-byte header sector, as cryptsetup's
 * {@code TCRYPT_init_hdr} does, but on all cores: each KDF row derives its header key once and
 * every chain is tried on it, and the first header that decrypts (magic and both CRC32s) wins and
 * stops the rest. The trials run on the caller's thread and helpers started for the search (or
 * tasks on the caller's {@code Executor}), taking the next trial from one priority queue; a KDF
 * still running when the search ends stops within 4096 iterations (Argon2: at its next slice), and
 * {@link #search} returns only once every helper has left.
 *
 * <p>The unit of work is one PBKDF2 block (PBKDF2's output blocks are independent, RFC 8018
 * section 5.2), not one row: a chain is tried as soon as the blocks holding the key bytes it
 * reads are there, and an AES-only XTS chain reads 64 of the 192 bytes a row can give (one
 * SHA-512 block, two SHA-256 blocks), and a hinted open spreads its row's blocks over the cores.
 * The first blocks of VeraCrypt's default PRF (SHA-512) and of SHA-256 (normal volumes' counts)
 * are queued before everything else; then blocks by the work it takes to have a row's key up to
 * them (block index × the row's cost per block), so TrueCrypt's 1000-iteration rows come before
 * VeraCrypt's other 500,000-iteration blocks, ties by the table's row order; Argon2id (one
 * indivisible derivation, hundreds of MiB) runs last. Run first, TrueCrypt's rows would take
 * both cores from an unhinted VeraCrypt open in a fresh JVM for a while (five hashes and some
 * thirty chains run cold, and their JIT compilation takes the cores); after those three VeraCrypt
 * blocks, an unhinted TrueCrypt open waits for them instead.
 * Chains are tried in the table's order, AES-XTS first. A row's first blocks are those of the
 * table's first chain given (XTS with one cipher, the usual volume: 64 bytes); the rest, which
 * only cascades read, are queued when those have been tried and opened nothing, not on
 * speculation: a block derived beside the first ones slows them (on two cores it takes the core
 * the JIT compiler needs in a fresh JVM, and made a hinted SHA-512 open of an AES volume slower),
 * while the trials of the other rows keep the cores busy when there are several.
 */
final class HeaderSearch {
    /** What opened: the row, the chain and the decrypted header. */
    record Match(Kdf kdf, long iterations, long[] argon2Cost, Chain chain, TcryptHeader header) {
    }

    private final byte[] salt;
    private final byte[] encrypted; // the 448 bytes after the salt
    private final byte[] password;
    private final boolean veracryptModes;
    private final Provider provider;
    private final Argon2Compression argon2;
    private final CompletableFuture<Match> result = new CompletableFuture<>();
    private final AtomicReference<VolumeException> failure = new AtomicReference<>();
    /** Set when the search ends: the KDFs still running stop. */
    private volatile boolean stopped;

    private HeaderSearch(byte[] sector, byte[] password, boolean veracryptModes, Provider provider,
            Argon2Compression argon2) {
        this.salt = Arrays.copyOfRange(sector, 0, 64);
        this.encrypted = Arrays.copyOfRange(sector, 64, 512);
        this.password = password;
        this.veracryptModes = veracryptModes;
        this.provider = provider;
        this.argon2 = argon2;
    }

    /** Whether the KDFs still running are to stop: a header opened, or the search is over. */
    private boolean stopping() {
        return stopped || result.isDone();
    }

    /** One KDF row's header key, filled block by block. */
    private final class Row {
        final Kdf kdf;
        final int pim;
        final List<Chain> chains;  // in the table's order
        final boolean[] tried;
        final int blockLen;
        final byte[][] blocks;
        final int first;           // blocks derived at once: the table's first chain's key
        int arrivedCount;
        boolean closed;

        Row(Kdf kdf, int pim, List<Chain> chains, int firstBytes) {
            this.kdf = kdf;
            this.pim = pim;
            this.chains = chains;
            this.tried = new boolean[chains.size()];
            int need = chains.stream().mapToInt(Chain::keyBytesNeeded).max().orElse(0);
            this.blockLen = kdf.argon2() ? Kdf.KEY_LENGTH : kdf.hash().length();
            this.blocks = new byte[(need + blockLen - 1) / blockLen][];
            this.first = Math.min(blocks.length, Math.max(1, (firstBytes + blockLen - 1) / blockLen));
        }

        /**
         * Stores a block and tries every chain whose key bytes are now all there; true when the
         * first blocks are all there, nothing opened, and the rest of the row is to be derived.
         */
        synchronized boolean arrived(int index, byte[] b) {
            if (closed || result.isDone()) {
                Arrays.fill(b, (byte) 0);
                return false;
            }
            blocks[index] = b;
            int have = 0;
            while (have < blocks.length && blocks[have] != null) {
                have++;
            }
            byte[] key = new byte[have * blockLen];
            for (int i = 0; i < have; i++) {
                System.arraycopy(blocks[i], 0, key, i * blockLen, blockLen);
            }
            byte[] buf = new byte[HeaderCipher.LEN];
            try {
                for (int c = 0; c < chains.size() && !result.isDone(); c++) {
                    Chain ch = chains.get(c);
                    if (tried[c] || ch.keyBytesNeeded() > key.length) {
                        continue;
                    }
                    tried[c] = true;
                    System.arraycopy(encrypted, 0, buf, 0, buf.length);
                    try {
                        HeaderCipher.decrypt(provider, ch, key, buf, 16); // the magic first: 1 block of 28
                        if (!TcryptHeader.magic(buf, veracryptModes)) {
                            continue;
                        }
                        System.arraycopy(encrypted, 0, buf, 0, buf.length);
                        HeaderCipher.decrypt(provider, ch, key, buf);
                    } catch (GeneralSecurityException e) {
                        continue; // a cipher that would not key: this chain cannot be it
                    }
                    TcryptHeader h = TcryptHeader.parse(buf, veracryptModes);
                    if (h != null) {
                        long it = kdf.argon2() ? 0 : kdf.iterations(pim);
                        if (!result.complete(new Match(kdf, it, kdf.argon2() ? kdf.argon2Cost(pim) : null, ch, h))) {
                            h.wipe();
                        }
                    }
                }
            } finally {
                Arrays.fill(key, (byte) 0);
                Arrays.fill(buf, (byte) 0);
            }
            return ++arrivedCount == first && first < blocks.length && !result.isDone();
        }

        synchronized void close() {
            closed = true;
            for (byte[] b : blocks) {
                if (b != null) {
                    Arrays.fill(b, (byte) 0);
                }
            }
        }
    }

    /**
     * The first (row, chain) that opens {@code sector} with {@code password} (the passphrase or
     * keyfile pool bytes), or null when none does.
     *
     * @throws VolumeException when no header opened and a row could not be tried (Argon2id's
     *     memory does not fit the heap); its message says which and why
     */
    static Match search(byte[] sector, byte[] password, List<Kdf> kdfs, int pim, List<Chain> chains,
            boolean veracryptModes, int threads, Provider provider, Executor executor, Argon2Compression argon2)
            throws VolumeException, InterruptedException {
        HeaderSearch s = new HeaderSearch(sector, password, veracryptModes, provider, argon2);
        List<Row> rows = new ArrayList<>();
        for (Kdf k : kdfs) {
            Row r = s.new Row(k, pim, chains, chains.get(0).keyBytesNeeded());
            if (r.blocks.length > 0) {
                rows.add(r);
            }
        }
        if (rows.isEmpty()) {
            return null;
        }
        int firstTasks = rows.stream().mapToInt(r -> r.first).sum();
        int n = Math.max(1, Math.min(threads, firstTasks));
        PriorityQueue<Task> queue = new PriorityQueue<>();
        int[] left = {firstTasks}; // tasks queued or running, under the queue's lock
        for (int i = 0; i < rows.size(); i++) {
            for (int b = 0; b < rows.get(i).first; b++) {
                queue.add(new Task(s, rows, i, b, pim));
            }
        }
        Runnable worker = () -> {
            while (true) {
                Task t;
                synchronized (queue) {
                    while (queue.isEmpty() && left[0] > 0 && !s.stopping()) {
                        try {
                            queue.wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                    if (s.stopping() || Thread.currentThread().isInterrupted() || (t = queue.poll()) == null) {
                        return;
                    }
                }
                List<Task> more = List.of();
                try {
                    more = t.run();
                } finally {
                    synchronized (queue) {
                        queue.addAll(more);
                        left[0] += more.size() - 1;
                        if (left[0] == 0) {
                            s.result.complete(null);
                        }
                        queue.notifyAll();
                    }
                }
            }
        };
        // the caller's thread is one of the n workers; when the threads asked for leave a core that
        // the first blocks do not use (a hinted open), it first loads and keys the ciphers the
        // trials need next, and all n trial workers are helpers
        boolean spare = threads > firstTasks;
        Workers.Crew crew = Workers.start(spare ? n : n - 1, executor, "tcrypt-kdf", worker);
        try {
            if (spare) {
                HeaderCipher.prepare(provider);
            }
            worker.run();
            if (Thread.interrupted()) {
                throw new InterruptedException("header search interrupted");
            }
            Match m = s.result.getNow(null);
            if (m == null && s.failure.get() != null) {
                throw new VolumeException("No header opened with the KDF rows that could be tried; "
                        + s.failure.get().getMessage(), s.failure.get());
            }
            return m;
        } finally {
            s.stopped = true; // running PBKDF2 blocks and Argon2 stop within 4096 iterations or a slice
            synchronized (queue) {
                queue.clear();
                queue.notifyAll();
            }
            crew.join();
            for (Row r : rows) {
                r.close();
            }
        }
    }

    /** One PBKDF2 block of one row (or the row's whole Argon2id), ordered by {@link #compareTo}. */
    private static final class Task implements Comparable<Task> {
        final HeaderSearch s;
        final List<Row> rows;
        final Row row;
        final int block, rowIndex, pim;
        final double order;
        final boolean early;

        Task(HeaderSearch s, List<Row> rows, int rowIndex, int block, int pim) {
            this.s = s;
            this.rows = rows;
            this.row = rows.get(rowIndex);
            this.rowIndex = rowIndex;
            this.block = block;
            this.pim = pim;
            this.order = row.kdf.argon2() ? Double.MAX_VALUE : (block + 1) * cost(row.kdf, pim);
            this.early = block < row.first && common(row.kdf);
        }

        @Override
        public int compareTo(Task o) {
            int c = early != o.early ? (early ? -1 : 1) : Double.compare(order, o.order);
            return c != 0 ? c : rowIndex != o.rowIndex ? Integer.compare(rowIndex, o.rowIndex)
                    : Integer.compare(block, o.block);
        }

        /** Derives and tries the block; returns the row's other blocks when they are to be derived now. */
        List<Task> run() {
            try {
                if (!s.result.isDone() && row.arrived(block, s.derive(row, block))) {
                    // the rest of the row's key only now: the first chain (AES alone, say) may
                    // have opened it, and a block derived on speculation would have taken a
                    // core from the first blocks and from the JIT compiler
                    List<Task> more = new ArrayList<>();
                    for (int b = row.first; b < row.blocks.length; b++) {
                        more.add(new Task(s, rows, rowIndex, b, pim));
                    }
                    return more;
                }
            } catch (CancellationException e) {
                // another trial opened the header, or the caller was interrupted
            } catch (VolumeException e) {
                s.failure.compareAndSet(null, e);
            } catch (RuntimeException e) {
                s.failure.compareAndSet(null, new VolumeException(row.kdf + " failed: " + e, e));
            }
            return List.of();
        }
    }

    /**
     * Rough time of one PBKDF2 block of {@code k}, for ordering only: iterations × the hash's
     * time per iteration relative to SHA-512's, as measured for a first block in a fresh JVM (JDK
     * SHA-2 intrinsics; the module's own Whirlpool; Bouncy Castle's BLAKE2s, RIPEMD-160 and
     * Streebog).
     */
    private static double cost(Kdf k, int pim) {
        double f = switch (k.hash()) {
            case SHA256 -> 0.7;
            case SHA512, SHA1 -> 1;
            case BLAKE2S_256 -> 1.4;
            case RIPEMD160 -> 1.6;
            case WHIRLPOOL -> 1.8;
            case STREEBOG512 -> 9;
            default -> 2;
        };
        return k.iterations(pim) * f;
    }

    /** VeraCrypt's default PRF (SHA-512) and the next most common (SHA-256), normal volumes' counts. */
    private static boolean common(Kdf k) {
        return k.veracrypt() && !k.boot() && (k.hash() == HashAlgorithm.SHA512 || k.hash() == HashAlgorithm.SHA256);
    }

    private byte[] derive(Row row, int block) throws VolumeException {
        Kdf k = row.kdf;
        if (k.argon2()) {
            long[] cost = k.argon2Cost(row.pim);
            return Argon2.derive("VeraCrypt Argon2id (time " + cost[0] + ", " + cost[1] / 1024 + " MiB)",
                    Argon2.Type.ARGON2ID, password, salt, cost[0], cost[1], 1, Kdf.KEY_LENGTH, argon2, null,
                    this::stopping);
        }
        return Pbkdf2.block(k.hash(), password, salt, k.iterations(row.pim), block + 1, this::stopping);
    }
}
