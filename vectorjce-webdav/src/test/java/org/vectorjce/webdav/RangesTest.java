package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The byte-range examples of RFC 9110 section 14.1.2, for a representation of 10000 bytes. */
class RangesTest {
    private static long[] one(String header) {
        List<long[]> r = Ranges.parse(header, 10000);
        assertEquals(1, r.size(), header);
        return r.get(0);
    }

    @Test
    void rfc9110Examples() {
        assertArrayEquals(new long[] {0, 499}, one("bytes=0-499"));
        assertArrayEquals(new long[] {500, 999}, one("bytes=500-999"));
        assertArrayEquals(new long[] {9500, 9999}, one("bytes=-500"));
        assertArrayEquals(new long[] {9500, 9999}, one("bytes=9500-"));
        assertArrayEquals(new long[] {0, 0}, one("bytes=0-0"));
        assertArrayEquals(new long[] {9999, 9999}, one("bytes=-1"));
        List<long[]> two = Ranges.parse("bytes=0-0,-1", 10000);
        assertEquals(2, two.size());
        assertArrayEquals(new long[] {0, 9999}, one("bytes=0-999999"));
        assertArrayEquals(new long[] {0, 9999}, one("bytes=-20000"));
    }

    @Test
    void unsatisfiableAndIgnored() {
        assertTrue(Ranges.parse("bytes=10000-", 10000).isEmpty());
        assertTrue(Ranges.parse("bytes=-0", 10000).isEmpty());
        assertTrue(Ranges.parse("bytes=0-", 0).isEmpty());
        assertNull(Ranges.parse("items=0-1", 10000));
        assertNull(Ranges.parse("bytes=5-1", 10000));
        assertNull(Ranges.parse("bytes=a-b", 10000));
        assertNull(Ranges.parse("bytes=" + "0-1,".repeat(20) + "0-1", 10000));
        assertNull(Ranges.parse(null, 10000));
    }
}
