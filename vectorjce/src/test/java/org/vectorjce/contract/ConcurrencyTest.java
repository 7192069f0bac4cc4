package org.vectorjce.contract;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.contract.ContractSupport.Spec;

/**
 * Many threads, each with its own {@code Cipher} from ONE provider instance, keying and encrypting
 * at the same time across every transformation and every kernel; every result must equal the one
 * computed single-threaded beforehand (on the same kernel, itself checked against the scalar one).
 *
 * <p>The kernel is forced through a system property read at key set-up, which is global, so the
 * test runs in rounds: in round r every AES key gets the r-th AES kernel and every Twofish key
 * the r-th Twofish kernel (cycling through the shorter list), and all threads key and encrypt
 * concurrently under it. Each thread keeps the ciphers it keyed; a final phase, after the last
 * round, has all threads encrypt and decrypt at once with ciphers of every kernel (a cipher keeps
 * its kernel until it is re-keyed), with no property in play.
 */
class ConcurrencyTest {

    private static final int THREADS = 8;
    private static final int REPEATS = 2;
    /** Lengths in blocks: short, a kernel width and a bit, across the modes' 256-block chunks. */
    private static final int[] BLOCKS = {1, 3, 17, 40, 300};

    /** The one provider instance every thread's ciphers come from. */

    @AfterEach
    void clearKernelProperties() {
        for (String alg : ContractSupport.ALGORITHMS) {
            TestProviders.reset();
        }
    }

    /** One piece of work: a transformation, key, IV and plaintext, with its expected ciphertext per round. */
    private record Task(Spec spec, byte[] key, byte[] iv, byte[] plain, List<byte[]> expected, List<String> kernels) {
    }

    /** A cipher keyed in some round, kept for the mixed phase. */
    private record Keyed(Task task, int round, Cipher enc, Cipher dec) {
    }

    private static byte[] encrypt(Spec s, byte[] key, byte[] iv, byte[] plain) throws Exception {
        Cipher c = Cipher.getInstance(s.transformation(), TestProviders.current());
        ContractSupport.init(c, s, Cipher.ENCRYPT_MODE, key, iv);
        return c.doFinal(plain);
    }

    private static List<Task> tasks(int rounds) throws Exception {
        Random rnd = new Random(0xC0C0_2026L);
        List<Task> tasks = new ArrayList<>();
        for (Spec s : ContractSupport.specs()) {
            int[] keyLengths = s.keyLengths();
            for (int i = 0; i < keyLengths.length; i++) {
                byte[] key = ContractSupport.key(rnd, keyLengths[i]);
                byte[] iv = ContractSupport.ivFor(s, rnd);
                int len = 16 * BLOCKS[rnd.nextInt(BLOCKS.length)];
                if (s.padded() || s.ctr()) {
                    len += rnd.nextInt(16);
                } else if (s.xts() && rnd.nextBoolean()) {
                    len += 1 + rnd.nextInt(15); // ciphertext stealing
                }
                byte[] plain = ContractSupport.bytes(rnd, len);
                List<String> kernels = ContractSupport.kernels(s.alg());
                List<String> perRound = new ArrayList<>();
                List<byte[]> expected = new ArrayList<>();
                byte[] scalar = withKernel(s.alg(), org.vectorjce.TestProviders.scalarKernel(s.alg()),
                        () -> encrypt(s, key, iv, plain));
                for (int r = 0; r < rounds; r++) {
                    String k = kernels.get(r % kernels.size());
                    byte[] want = withKernel(s.alg(), k, () -> encrypt(s, key, iv, plain));
                    assertArrayEquals(scalar, want, s + " kernel " + k + " differs from the scalar kernel");
                    perRound.add(k);
                    expected.add(want);
                }
                tasks.add(new Task(s, key, iv, plain, expected, perRound));
            }
        }
        return tasks;
    }

    private interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T withKernel(String alg, String kernel, Body<T> body) throws Exception {
        TestProviders.force(alg, kernel);
        try {
            return body.run();
        } finally {
            TestProviders.reset();
        }
    }

    /** Encrypts through one of several API paths (chosen by {@code form}); doFinal leaves the cipher reusable. */
    private static byte[] run(Cipher c, byte[] in, int form) throws Exception {
        switch (form % 4) {
            case 0:
                return c.doFinal(in);
            case 1: {
                // update in uneven pieces, then doFinal.
                byte[] out = new byte[c.getOutputSize(in.length)];
                int n = 0;
                int pos = 0;
                int piece = 1;
                while (pos < in.length) {
                    int take = Math.min(piece, in.length - pos);
                    n += c.update(in, pos, take, out, n);
                    pos += take;
                    piece = piece * 3 + 5;
                }
                n += c.doFinal(out, n);
                return java.util.Arrays.copyOf(out, n);
            }
            case 2: {
                ByteBuffer src = ByteBuffer.allocateDirect(in.length);
                src.put(in).flip();
                ByteBuffer dst = ByteBuffer.allocateDirect(c.getOutputSize(in.length));
                c.doFinal(src, dst);
                dst.flip();
                byte[] r = new byte[dst.remaining()];
                dst.get(r);
                return r;
            }
            default: {
                // In place: same array, same offset.
                byte[] buf = java.util.Arrays.copyOf(in, Math.max(in.length, c.getOutputSize(in.length)));
                int n = c.doFinal(buf, 0, in.length, buf, 0);
                return java.util.Arrays.copyOf(buf, n);
            }
        }
    }

    @Test
    void threadsKeyingAndEncryptingAtOnceMatchSingleThreadedResults() throws Exception {
        int rounds = Math.max(ContractSupport.kernels("AES").size(), ContractSupport.kernels("Twofish").size());
        List<Task> tasks = tasks(rounds);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<List<Keyed>> keptPerThread = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            keptPerThread.add(Collections.synchronizedList(new ArrayList<>()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long t0 = System.nanoTime();
        int operations = 0;
        try {
            for (int round = 0; round < rounds; round++) {
                for (String alg : ContractSupport.ALGORITHMS) {
                    List<String> ks = ContractSupport.kernels(alg);
                    TestProviders.force(alg, ks.get(round % ks.size()));
                }
                CyclicBarrier start = new CyclicBarrier(THREADS);
                List<Future<Integer>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    int r = round;
                    futures.add(pool.submit(() -> keyAndEncrypt(thread, r, tasks, start, keptPerThread.get(thread), failures)));
                }
                for (Future<Integer> f : futures) {
                    operations += f.get(60, TimeUnit.SECONDS);
                }
                assertTrue(failures.isEmpty(), () -> sample(failures));
            }
            TestProviders.reset();
            // Mixed phase: every thread uses its ciphers of every round (every kernel) at once.
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> reuse(thread, start, keptPerThread.get(thread), failures)));
            }
            for (Future<Integer> f : futures) {
                operations += f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "worker threads did not stop");
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " concurrent results differ from single-threaded ones, e.g.:\n" + sample(failures));
        }
        System.out.printf("[CONCURRENCY] %d threads, %d rounds of kernels, %d encrypt/decrypt operations in %.1f s%n",
                THREADS, rounds, operations, (System.nanoTime() - t0) / 1e9);
        assertEquals(0, failures.size());
    }

    private static String sample(ConcurrentLinkedQueue<String> failures) {
        StringBuilder sb = new StringBuilder();
        failures.stream().limit(5).forEach(f -> sb.append(f).append('\n'));
        return sb.toString();
    }

    /** One thread's round: key a fresh cipher pair per task (all threads at once) and check the results. */
    private static int keyAndEncrypt(int thread, int round, List<Task> tasks, CyclicBarrier start, List<Keyed> kept,
                                     ConcurrentLinkedQueue<String> failures) throws Exception {
        List<Task> order = new ArrayList<>(tasks);
        Collections.shuffle(order, new Random(31L * thread + round));
        start.await(30, TimeUnit.SECONDS);
        int ops = 0;
        for (int rep = 0; rep < REPEATS; rep++) {
            for (int i = 0; i < order.size(); i++) {
                Task task = order.get(i);
                Spec s = task.spec();
                String where = "thread " + thread + " round " + round + " " + s + " kernel " + task.kernels().get(round)
                        + " key " + task.key().length + " bytes, " + task.plain().length + " bytes";
                try {
                    Cipher enc = Cipher.getInstance(s.transformation(), TestProviders.current());
                    ContractSupport.init(enc, s, Cipher.ENCRYPT_MODE, task.key(), task.iv());
                    Cipher dec = Cipher.getInstance(s.transformation(), TestProviders.current());
                    ContractSupport.init(dec, s, Cipher.DECRYPT_MODE, task.key(), task.iv());
                    int form = thread + i + rep;
                    byte[] ct = run(enc, task.plain(), form);
                    if (!java.util.Arrays.equals(task.expected().get(round), ct)) {
                        failures.add(where + ": ciphertext differs (API form " + form % 4 + ")");
                        continue;
                    }
                    byte[] pt = run(dec, ct, form + 1);
                    if (!java.util.Arrays.equals(task.plain(), pt)) {
                        failures.add(where + ": decryption differs (API form " + (form + 1) % 4 + ")");
                        continue;
                    }
                    ops += 2;
                    if (rep == 0) {
                        kept.add(new Keyed(task, round, enc, dec));
                    }
                } catch (Exception | AssertionError e) {
                    failures.add(where + ": " + e);
                }
            }
        }
        return ops;
    }

    /** The mixed phase: ciphers of every kernel, reused (doFinal resets them) by all threads at once. */
    private static int reuse(int thread, CyclicBarrier start, List<Keyed> kept, ConcurrentLinkedQueue<String> failures)
            throws Exception {
        List<Keyed> order = new ArrayList<>(kept);
        Collections.shuffle(order, new Random(thread));
        start.await(30, TimeUnit.SECONDS);
        int ops = 0;
        for (int i = 0; i < order.size(); i++) {
            Keyed k = order.get(i);
            Task task = k.task();
            String where = "thread " + thread + " mixed phase " + task.spec() + " kernel " + task.kernels().get(k.round());
            try {
                byte[] ct = run(k.enc(), task.plain(), thread + i);
                if (!java.util.Arrays.equals(task.expected().get(k.round()), ct)) {
                    failures.add(where + ": ciphertext differs");
                    continue;
                }
                if (!java.util.Arrays.equals(task.plain(), run(k.dec(), ct, thread + i + 1))) {
                    failures.add(where + ": decryption differs");
                    continue;
                }
                ops += 2;
            } catch (Exception | AssertionError e) {
                failures.add(where + ": " + e);
            }
        }
        return ops;
    }
}
