package org.vectorjce.tool.volume;

import java.util.List;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM as a request to stop (the long-running verbs: {@code serve}, {@code mount}),
 * so that the verb finishes, flushes, closes the volume and the process exits 0, instead of the
 * JVM's default of running shutdown hooks and exiting 130 or 143. Through {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}, in every JDK since 9): the JDK has no public API for it.
 */
final class Signals {
    private Signals() {
    }

    /**
     * Runs {@code stop} (on a thread of the JVM's) at the first SIGINT or SIGTERM; {@code restore}
     * receives what {@link #restore} needs to put the previous handlers back.
     */
    static void onStop(Runnable stop, List<Object> restore) {
        SignalHandler h = sig -> stop.run();
        for (String name : new String[] {"INT", "TERM"}) {
            Signal s = new Signal(name);
            try {
                SignalHandler old = Signal.handle(s, h);
                restore.add(s);
                restore.add(old);
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal (e.g. -Xrs): the default action stays
            }
        }
    }

    /** Puts back the handlers {@link #onStop} replaced. */
    static void restore(List<Object> restore) {
        for (int i = 0; i + 1 < restore.size(); i += 2) {
            Signal.handle((Signal) restore.get(i), (SignalHandler) restore.get(i + 1));
        }
        restore.clear();
    }
}
