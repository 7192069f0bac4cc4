package org.vectorjce.tool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * The commands' threaded copy loop ({@code vectorjce image}, {@code volume decrypt} and
 * {@code volume encrypt}): workers, each with state of its own (a cipher) and a
 * buffer it wipes at the end, take the next chunk of {@code [0, size)} in turn; the calling thread
 * reports progress every 200 ms; the first failure stops the others and is thrown once they have
 * all ended.
 */
public final class Chunks {
    /** One worker's part: runs each chunk it takes. */
    @FunctionalInterface
    public interface Task {
        /** Chunk {@code [at, at + buf.remaining())}: {@code buf} is cleared and limited to its length. */
        void run(long at, ByteBuffer buf) throws IOException;
    }

    /** Makes worker {@code i}'s task (before any worker starts: a failure here starts none). */
    @FunctionalInterface
    public interface TaskFactory {
        Task create(int i) throws IOException;
    }

    private Chunks() {
    }

    /**
     * Runs {@code threads} workers (at most one per chunk) over chunks of {@code chunk} bytes;
     * {@code progress} receives the bytes done so far, on this thread.
     */
    public static void run(long size, int chunk, int threads, String name, TaskFactory tasks, LongConsumer progress)
            throws IOException {
        int n = (int) Math.max(1, Math.min(threads, (size + chunk - 1) / chunk));
        Task[] t = new Task[n];
        for (int i = 0; i < n; i++) {
            t[i] = tasks.create(i);
        }
        AtomicLong next = new AtomicLong(), done = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[n];
        for (int i = 0; i < n; i++) {
            Task task = t[i];
            workers[i] = new Thread(() -> {
                byte[] buf = new byte[(int) Math.min(chunk, Math.max(size, 1))];
                try {
                    for (long at; failure.get() == null && (at = next.getAndAdd(chunk)) < size; ) {
                        int len = (int) Math.min(chunk, size - at);
                        task.run(at, ByteBuffer.wrap(buf, 0, len));
                        done.addAndGet(len);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    Arrays.fill(buf, (byte) 0);
                }
            }, name + "-" + i);
            workers[i].start();
        }
        for (Thread w : workers) {
            while (w.isAlive()) {
                try {
                    w.join(200);
                } catch (InterruptedException e) {
                    failure.compareAndSet(null, new IOException("Interrupted"));
                }
                progress.accept(done.get());
            }
        }
        Throwable e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        } else if (e instanceof RuntimeException r) {
            throw r;
        } else if (e instanceof Error r) {
            throw r;
        } else if (e != null) {
            throw new IOException(e);
        }
        progress.accept(done.get());
    }
}
