package org.vectorjce.fs.part;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The allocated rows of {@code mmls}'s table (The Sleuth Kit): slot, start and length in sectors, description. */
final class Mmls {
    private Mmls() {
    }

    /** One row whose slot is a partition's ({@code 000:001} for DOS, {@code 003} for GPT), not Meta or unallocated. */
    record Row(String slot, long start, long length, String description) {
    }

    private static final Pattern ROW = Pattern.compile("^\\d+:\\s+(\\d+(?::\\d+)?)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(.*)$");

    static List<Row> rows(String out) {
        List<Row> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.add(new Row(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(4)), m.group(5)));
            }
        }
        return rows;
    }
}
