package org.vectorjce.fs.exfat;

import java.nio.file.attribute.FileTime;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * exFAT timestamps (specification section 7.4.8): a DOS-style local date and time with 2-second
 * resolution, a 10 ms increment of 0 to 199 (section 7.4.10; Create and LastModified only) and a UTC
 * offset byte (section 7.4.11): bit 7 says the offset is valid, bits 0-6 are a signed count of 15
 * minutes. With a valid offset the local time is turned into UTC; without one (volumes written by
 * older tools) the local time is taken as UTC, since the zone it was written in is unknown.
 *
 * <p>A zero timestamp is a time not kept ({@code null}); so is one whose fields are out of range (a
 * month 13, a February 30th), rather than a refusal of the whole directory. An increment over 199
 * is ignored.
 */
final class ExfatTimes {
    private ExfatTimes() {
    }

    static FileTime toFileTime(int timestamp, int tenMs, int utcOffset) {
        if (timestamp == 0) {
            return null;
        }
        int seconds = (timestamp & 0x1f) * 2;
        int minute = (timestamp >>> 5) & 0x3f;
        int hour = (timestamp >>> 11) & 0x1f;
        int day = (timestamp >>> 16) & 0x1f;
        int month = (timestamp >>> 21) & 0xf;
        int year = 1980 + (timestamp >>> 25);
        LocalDateTime local;
        try {
            local = LocalDateTime.of(year, month, day, hour, minute, seconds);
        } catch (DateTimeException e) {
            return null;
        }
        long epoch = local.toEpochSecond(ZoneOffset.UTC);
        if ((utcOffset & 0x80) != 0) {
            int quarters = (byte) (utcOffset << 1) >> 1; // bits 0-6, signed
            epoch -= quarters * 15L * 60;
        }
        long millis = epoch * 1000 + (tenMs >= 0 && tenMs <= 199 ? tenMs * 10L : 0);
        return FileTime.fromMillis(millis);
    }
}
