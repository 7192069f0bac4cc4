package org.vectorjce.fuzz;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counters of what the fuzz programs exercised, printed by the seeded sweep (so a weak decoder shows). */
final class Stats {
    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private Stats() {
    }

    static void count(String what) {
        COUNTS.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    static String summary() {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(COUNTS).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ", ").append(k).append(' ').append(v.sum()));
        return sb.toString();
    }

    static void reset() {
        COUNTS.clear();
    }
}
