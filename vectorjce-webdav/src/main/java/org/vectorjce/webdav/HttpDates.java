package org.vectorjce.webdav;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The two date forms of the protocols: HTTP's IMF-fixdate (RFC 9110 section 5.6.7, e.g.
 * {@code Sun, 06 Nov 1994 08:49:37 GMT}; WebDAV's getlastmodified uses it too) and RFC 3339's
 * date-time for WebDAV's creationdate (RFC 4918 section 15.1). Formatted by hand, not with a
 * locale's names, so the output is the same on every JVM.
 */
final class HttpDates {
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private HttpDates() {
    }

    /** IMF-fixdate, to the second. */
    static String format(Instant t) {
        ZonedDateTime d = t.atZone(ZoneOffset.UTC);
        return String.format("%s, %02d %s %04d %02d:%02d:%02d GMT", DAYS[d.getDayOfWeek().ordinal()],
                d.getDayOfMonth(), MONTHS[d.getMonthValue() - 1], d.getYear(), d.getHour(), d.getMinute(),
                d.getSecond());
    }

    /** RFC 3339 date-time in UTC, to the second. */
    static String rfc3339(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * An HTTP date (IMF-fixdate; RFC 1123's form with a one-digit day is taken too), or null when
     * it is none: RFC 9110 section 13.1.3 says an invalid date in a condition is ignored.
     */
    static Instant parse(String s) {
        if (s == null || s.length() > 64) {
            return null;
        }
        try {
            return ZonedDateTime.parse(s.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeException e) {
            return null;
        }
    }
}
