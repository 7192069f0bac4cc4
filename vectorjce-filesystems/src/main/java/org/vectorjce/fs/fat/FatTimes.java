package org.vectorjce.fs.fat;

import java.nio.file.attribute.FileTime;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * FAT's directory-entry dates and times (fatgen103 "Date and Time Formats"): a date is bits 0-4
 * day, 5-8 month, 9-15 years since 1980; a time is bits 0-4 two-second count, 5-10 minutes,
 * 11-15 hours; the creation time adds a count of 10 ms (0 to 199).
 *
 * <p>FAT stores local time with no zone. These are read as UTC, which is what mtools and Linux's
 * vfat give with {@code TZ=UTC}; a caller who knows the writer's zone may shift them. A date of 0
 * (never set) and a field out of range (month 13, 30 February, hour 24) are {@code null}.
 */
final class FatTimes {
    private FatTimes() {
    }

    /** The date and time as UTC, plus {@code tenths10ms} hundredths; null when unset or invalid. */
    static FileTime of(int date, int time, int tenths10ms) {
        if (date == 0) {
            return null;
        }
        int day = date & 0x1f;
        int month = (date >>> 5) & 0x0f;
        int year = 1980 + ((date >>> 9) & 0x7f);
        int seconds = (time & 0x1f) * 2;
        int minutes = (time >>> 5) & 0x3f;
        int hours = (time >>> 11) & 0x1f;
        if (tenths10ms < 0 || tenths10ms > 199 || seconds > 58 || minutes > 59 || hours > 23) {
            return null;
        }
        try {
            LocalDateTime t = LocalDateTime.of(year, month, day, hours, minutes, seconds)
                    .plusNanos(tenths10ms * 10_000_000L);
            return FileTime.from(t.toInstant(ZoneOffset.UTC));
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** A date alone, as its midnight UTC (the access date). */
    static FileTime ofDate(int date) {
        return of(date, 0, 0);
    }
}
