package org.vectorjce.webdav;

import java.util.ArrayList;
import java.util.List;

/**
 * The Range header field (RFC 9110 section 14.2; RFC 7233 before it): a list of byte ranges of a
 * representation of known length. A header that is not well-formed bytes ranges, or that asks for
 * more than {@link #MAX_RANGES} ranges, is ignored (the whole file is sent: section 14.2 lets a
 * server ignore Range), so that a client cannot make one request cost many seeks.
 */
final class Ranges {
    /** The most ranges one request may ask for. */
    static final int MAX_RANGES = 16;
    /** The answer when no range is satisfiable: 416. */
    static final List<long[]> UNSATISFIABLE = List.of();

    private Ranges() {
    }

    /**
     * The satisfiable ranges, each {first, last} inclusive and clipped to {@code size}; an empty
     * list ({@link #UNSATISFIABLE}) when none is; null when the header is to be ignored.
     */
    static List<long[]> parse(String header, long size) {
        if (header == null) {
            return null;
        }
        String h = header.strip();
        if (h.length() < 7 || !h.regionMatches(true, 0, "bytes=", 0, 6)) {
            return null;
        }
        String[] specs = h.substring(6).split(",", -1);
        if (specs.length > MAX_RANGES) {
            return null;
        }
        List<long[]> out = new ArrayList<>(specs.length);
        for (String spec : specs) {
            String s = spec.strip();
            int dash = s.indexOf('-');
            if (dash < 0) {
                return null;
            }
            String a = s.substring(0, dash);
            String b = s.substring(dash + 1);
            if (a.isEmpty()) {
                long n = number(b);
                if (n < 0) {
                    return null;
                }
                if (n > 0 && size > 0) {
                    out.add(new long[] {Math.max(0, size - n), size - 1});
                }
                continue;
            }
            long first = number(a);
            long last = b.isEmpty() ? Long.MAX_VALUE : number(b);
            if (first < 0 || last < 0 || last < first) {
                return null;
            }
            if (first < size) {
                out.add(new long[] {first, Math.min(last, size - 1)});
            }
        }
        return out.isEmpty() ? UNSATISFIABLE : out;
    }

    /** A non-negative decimal, or -1 when it is none (or too long to be an offset). */
    private static long number(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(s);
    }
}
