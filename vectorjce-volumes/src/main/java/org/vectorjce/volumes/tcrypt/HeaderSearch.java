package org.vectorjce.volumes.tcrypt;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.Argon2;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * Walks the (KDF row × cipher chain) table for one 512-byte header sector, as cryptsetup's
 * {@code TCRYPT_init_hdr} does, but on all cores: each KDF row derives its header key once and
 * every chain is tried on it, and the first header that decrypts (magic and both CRC32s) wins and
 * cancels the rest.
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
 * about 0.3 s of both cores from an unhinted VeraCrypt open in a fresh JVM (five hashes and some
 * thirty chains run cold, and their JIT compilation takes the cores); after those three VeraCrypt
 * blocks, an unhinted TrueCrypt open waits for them instead
 * ({@code bench/results/2026-12-01-1430-tcrypt-search-notes.md}).
 * Chains are tried in the table's order, AES-XTS first. A row's first blocks are those of the
 * table's first chain given (XTS with one cipher, the usual volume: 64 bytes); the rest, which
 * only cascades read, are queued when those have been tried and opened nothing, not on
 * speculation: a block derived beside the first ones slows them (on two cores it takes the core
 * the JIT compiler needs in a fresh JVM; measured 0.6 s against 1.0 s for a hinted SHA-512 open
 * of an AES volume), while the trials of the other rows keep the cores busy when there are several.
 */
final class HeaderSearch {
    /** What opened: the row, the chain and the decrypted header. */
    record Match(Kdf kdf, long iterations, long[] argon2Cost, Chain chain, TcryptHeader header) {
    }

    private final byte[] salt;
    private final byte[] encrypted; // the 448 bytes after the salt
    private final byte[] password;
    private final boolean veracryptModes;
    private final CompletableFuture<Match> result = new CompletableFuture<>();
    private final AtomicReference<VolumeException> failure = new AtomicReference<>();

    private HeaderSearch(byte[] sector, byte[] password, boolean veracryptModes) {
        this.salt = Arrays.copyOfRange(sector, 0, 64);
        this.encrypted = Arrays.copyOfRange(sector, 64, 512);
        this.password = password;
        this.veracryptModes = veracryptModes;
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
                        HeaderCipher.decrypt(ch, key, buf, 16); // the magic first: 1 block of 28
                        if (!TcryptHeader.magic(buf, veracryptModes)) {
                            continue;
                        }
                        System.arraycopy(encrypted, 0, buf, 0, buf.length);
                        HeaderCipher.decrypt(ch, key, buf);
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
            boolean veracryptModes, int threads) throws VolumeException, InterruptedException {
        HeaderSearch s = new HeaderSearch(sector, password, veracryptModes);
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
        if (threads > firstTasks) {
            // a core the KDF leaves idle (a hinted open): load and key the provider's ciphers
            // meanwhile, which the trials need next (tens of milliseconds in a fresh JVM)
            Thread w = new Thread(HeaderCipher::warmUp, "tcrypt-warm-up");
            w.setDaemon(true);
            w.start();
        }
        AtomicInteger left = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(n, n, 0, TimeUnit.SECONDS, new PriorityBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "tcrypt-kdf");
                    t.setDaemon(true);
                    return t;
                });
        final class Task implements Runnable, Comparable<Task> {
            final Row row;
            final int block, rowIndex;
            final double order;
            final boolean early;

            Task(int rowIndex, int block) {
                this.row = rows.get(rowIndex);
                this.rowIndex = rowIndex;
                this.block = block;
                this.order = row.kdf.argon2() ? Double.MAX_VALUE : (block + 1) * cost(row.kdf, pim);
                this.early = block < row.first && common(row.kdf);
            }

            @Override
            public int compareTo(Task o) {
                int c = early != o.early ? (early ? -1 : 1) : Double.compare(order, o.order);
                return c != 0 ? c : rowIndex != o.rowIndex ? Integer.compare(rowIndex, o.rowIndex)
                        : Integer.compare(block, o.block);
            }

            @Override
            public void run() {
                try {
                    if (!s.result.isDone() && row.arrived(block, s.derive(row, block))) {
                        // the rest of the row's key only now: the first chain (AES alone, say) may
                        // have opened it, and a block derived on speculation would have taken a
                        // core from the first blocks and from the JIT compiler
                        left.addAndGet(row.blocks.length - row.first);
                        for (int b = row.first; b < row.blocks.length; b++) {
                            pool.execute(new Task(rowIndex, b));
                        }
                    }
                } catch (CancellationException | RejectedExecutionException e) {
                    // another trial opened the header
                } catch (VolumeException e) {
                    s.failure.compareAndSet(null, e);
                } catch (RuntimeException e) {
                    s.failure.compareAndSet(null, new VolumeException(row.kdf + " failed: " + e, e));
                } finally {
                    if (left.decrementAndGet() == 0) {
                        s.result.complete(null);
                    }
                }
            }
        }
        try {
            left.set(firstTasks);
            // in order: the pool's first n tasks go to its new threads, not through the queue
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                for (int b = 0; b < rows.get(i).first; b++) {
                    tasks.add(new Task(i, b));
                }
            }
            tasks.sort(null);
            tasks.forEach(pool::execute);
            Match m = s.result.get();
            if (m == null && s.failure.get() != null) {
                throw new VolumeException("No header opened with the KDF rows that could be tried; "
                        + s.failure.get().getMessage(), s.failure.get());
            }
            return m;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow(); // interrupts running PBKDF2 blocks; Argon2 runs to its end in its daemon thread
            for (Row r : rows) {
                r.close();
            }
        }
    }

    /**
     * Rough time of one PBKDF2 block of {@code k}, for ordering only: iterations × the hash's
     * time per iteration relative to SHA-512's, for a first 500,000-iteration block in a fresh JVM
     * here (JDK SHA-2 intrinsics; the own Whirlpool; Bouncy Castle's BLAKE2s, RIPEMD-160 and
     * Streebog: 0.35, 0.48, 0.84, 0.65, 0.74 and 4.5 s for SHA-256, SHA-512, Whirlpool, BLAKE2s,
     * RIPEMD-160 and Streebog).
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
                    Argon2.Type.ARGON2ID, password, salt, cost[0], cost[1], 1, Kdf.KEY_LENGTH);
        }
        return Pbkdf2.block(k.hash(), password, salt, k.iterations(row.pim), block + 1);
    }
}
