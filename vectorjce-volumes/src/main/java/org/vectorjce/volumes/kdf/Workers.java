package org.vectorjce.volumes.kdf;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The helpers of one call's parallel work (Argon2's lanes, TrueCrypt's PRF trials): threads
 * started for that call, or tasks handed to the caller's {@link Executor}, never a pool of this
 * library's own. The caller's thread always works beside them, so the work finishes even when an
 * executor runs the helpers late or never (a busy or single-thread executor, the caller among its
 * threads). {@link Crew#join()} returns once every helper that started has left the work; helpers
 * that start after it return at once, and threads started here have ended. Not part of the API:
 * the volumes' builders take the {@code Executor}.
 */
public final class Workers {
    private Workers() {
    }

    /**
     * Runs every task, on the caller's thread and up to {@code parallelism - 1} helpers, each taking
     * the next task not yet taken; returns when all have run. The first failure is thrown (an
     * {@code Error} as it is), after every task taken has ended.
     */
    public static void runAll(Runnable[] tasks, int parallelism, Executor executor, String name) {
        int helpers = Math.min(parallelism, tasks.length) - 1;
        if (helpers <= 0) {
            for (Runnable t : tasks) {
                t.run();
            }
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Throwable[] failure = new Throwable[1];
        Runnable body = () -> {
            for (int i; (i = next.getAndIncrement()) < tasks.length; ) {
                try {
                    tasks[i].run();
                } catch (RuntimeException | Error e) {
                    synchronized (failure) {
                        if (failure[0] == null) {
                            failure[0] = e;
                        }
                    }
                    next.set(tasks.length); // the others stop at their next task
                }
            }
        };
        Crew crew = start(helpers, executor, name, body);
        try {
            body.run();
        } finally {
            crew.join();
        }
        Throwable f;
        synchronized (failure) {
            f = failure[0];
        }
        if (f instanceof Error e) {
            throw e; // an OutOfMemoryError of a lane's allocation, above all
        }
        if (f != null) {
            throw (RuntimeException) f;
        }
    }

    /**
     * Starts {@code helpers} runs of {@code body}: on the executor, or when it is null on as many
     * new threads named {@code name}. An executor that refuses a task leaves that helper out.
     */
    public static Crew start(int helpers, Executor executor, String name, Runnable body) {
        Crew c = new Crew(body);
        for (int k = 0; k < helpers; k++) {
            if (executor == null) {
                Thread t = new Thread(c::run, name);
                t.setDaemon(true);
                c.own.add(t);
                t.start();
            } else {
                try {
                    executor.execute(c::run);
                } catch (RejectedExecutionException e) {
                    // one helper fewer: the caller's thread does its share
                }
            }
        }
        return c;
    }

    /** The helpers {@link #start} started. */
    public static final class Crew {
        private final Runnable body;
        private final List<Thread> own = new ArrayList<>();
        private final Set<Thread> inside = new HashSet<>();
        private boolean closed;

        private Crew(Runnable body) {
            this.body = body;
        }

        private void run() {
            Thread me = Thread.currentThread();
            synchronized (this) {
                if (closed) {
                    return;
                }
                inside.add(me);
            }
            try {
                body.run();
            } finally {
                synchronized (this) {
                    inside.remove(me);
                    notifyAll();
                }
            }
        }

        /**
         * Waits until no helper is in the work and the threads started for it have ended; a helper
         * that starts later returns at once. An interrupt while waiting is kept for the caller.
         */
        public void join() {
            boolean interrupted = false;
            synchronized (this) {
                closed = true;
                while (!inside.isEmpty()) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            for (Thread t : own) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
