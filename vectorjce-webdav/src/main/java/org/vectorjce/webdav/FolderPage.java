package org.vectorjce.webdav;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The HTML page of a folder, for people with a browser: the title and facts at the top,
 * breadcrumbs, and a table of name, size and modification time that sorts by any column through
 * plain links ({@code ?sort=size&order=desc}), so it works with no script at all. Everything is in
 * the one page (inline CSS; no script, font or image from anywhere), readable on a phone's width.
 * Every name is HTML-escaped in text and percent-encoded in links. The page is sent with a
 * Content-Security-Policy of {@link #CSP}.
 */
final class FolderPage {
    /** Nothing but the page's own inline style may load or run. */
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'";
    /** The most entries a page lists; a larger folder says how many more there are. */
    static final int MAX_ENTRIES = 20_000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    private static final String STYLE = "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
            + "margin:0 auto;max-width:980px;padding:12px 16px;color:#1d2330;background:#fff}"
            + "header{border-bottom:1px solid #d8dde6;padding-bottom:8px;margin-bottom:8px}"
            + "h1{font-size:1.35em;margin:.2em 0}"
            + "dl{display:flex;flex-wrap:wrap;gap:4px 18px;margin:4px 0;color:#4a5366;font-size:.9em}"
            + "dl div{display:flex;gap:6px}dt{font-weight:600}dd{margin:0}"
            + "nav{margin:10px 0;word-break:break-word}nav a{color:#1c5fb8}"
            + "table{width:100%;border-collapse:collapse}"
            + "th{text-align:left;font-weight:600;border-bottom:2px solid #d8dde6;padding:6px 8px;white-space:nowrap}"
            + "th a{color:inherit;text-decoration:none}th a:hover{text-decoration:underline}"
            + "td{padding:6px 8px;border-bottom:1px solid #eef0f4;vertical-align:top}"
            + "tr:hover td{background:#f5f8fc}"
            + "td.n{word-break:break-word}td.n a{color:#1c5fb8;text-decoration:none}td.n a:hover{text-decoration:underline}"
            + "td.d a{font-weight:600}td.d a::before{content:'';display:inline-block;width:.95em;height:.7em;"
            + "margin-right:.4em;border:2px solid #c99a2e;border-radius:2px;background:#f3d27a;vertical-align:-1px}"
            + "td.s,td.m{white-space:nowrap;color:#4a5366;font-variant-numeric:tabular-nums}.s{text-align:right}"
            + ".g a{color:#1c5fb8;text-decoration:none;font-weight:700;padding:0 6px}"
            + "footer{color:#6b7487;font-size:.85em;margin:10px 0}"
            + "@media (max-width:560px){body{padding:8px}th,td{padding:6px 4px}.m{font-size:.8em;white-space:normal}}";

    private FolderPage() {
    }

    /**
     * The page.
     *
     * @param prefix the URL path of the served root ({@code /TOKEN/})
     * @param segments the folder's names below the root
     * @param entries the folder's members (sorted here)
     * @param more how many members were left out above {@link #MAX_ENTRIES}
     */
    static byte[] render(String title, Map<String, String> facts, String prefix, List<String> segments,
            List<Resource> entries, long more, DavPath path) {
        String sort = path.param("sort");
        if (!"size".equals(sort) && !"modified".equals(sort)) {
            sort = "name";
        }
        boolean desc = "desc".equals(path.param("order"));
        entries.sort(order(sort, desc));
        StringBuilder here = new StringBuilder(prefix);
        for (String s : segments) {
            here.append(DavPath.encode(s)).append('/');
        }
        StringBuilder h = new StringBuilder(4096 + entries.size() * 300);
        String name = segments.isEmpty() ? title : segments.get(segments.size() - 1);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<meta name=\"referrer\" content=\"no-referrer\">")
                .append("<title>").append(html(name)).append(segments.isEmpty() ? "" : " \u2014 " + html(title))
                .append("</title><style>").append(STYLE).append("</style></head><body>\n<header><h1>")
                .append(html(title)).append("</h1>");
        if (!facts.isEmpty()) {
            h.append("<dl>");
            facts.forEach((k, v) -> h.append("<div><dt>").append(html(k)).append("</dt><dd>").append(html(v))
                    .append("</dd></div>"));
            h.append("</dl>");
        }
        h.append("</header>\n<nav aria-label=\"Folders\"><a href=\"").append(html(prefix)).append("\">")
                .append(html(title)).append("</a>");
        StringBuilder crumb = new StringBuilder(prefix);
        for (int i = 0; i < segments.size(); i++) {
            crumb.append(DavPath.encode(segments.get(i))).append('/');
            h.append(" / ");
            if (i == segments.size() - 1) {
                h.append("<strong>").append(html(segments.get(i))).append("</strong>");
            } else {
                h.append("<a href=\"").append(html(crumb.toString())).append("\">").append(html(segments.get(i)))
                        .append("</a>");
            }
        }
        h.append("</nav>\n<table><thead><tr>");
        column(h, "Name", "name", sort, desc, "");
        column(h, "Size", "size", sort, desc, " class=\"s\"");
        column(h, "Modified (UTC)", "modified", sort, desc, "");
        h.append("<th><span hidden>Download</span></th></tr></thead>\n<tbody>\n");
        if (!segments.isEmpty()) {
            String up = crumb.substring(0, crumb.length() - DavPath.encode(segments.get(segments.size() - 1)).length() - 1);
            h.append("<tr><td class=\"n d\"><a href=\"").append(html(up)).append("\">..</a></td><td class=\"s\"></td>")
                    .append("<td class=\"m\"></td><td></td></tr>\n");
        }
        int folders = 0;
        for (Resource r : entries) {
            String href = here + DavPath.encode(r.name) + (r.folder ? "/" : "");
            h.append("<tr><td class=\"n").append(r.folder ? " d" : "").append("\"><a href=\"").append(html(href))
                    .append("\">").append(html(r.name)).append("</a></td>");
            if (r.folder) {
                folders++;
                h.append("<td class=\"s\">\u2014</td>");
            } else {
                h.append("<td class=\"s\" title=\"").append(r.size).append(" bytes\">").append(size(r.size)).append("</td>");
            }
            h.append("<td class=\"m\"><time datetime=\"").append(HttpDates.rfc3339(r.modified)).append("\">")
                    .append(TIME.format(r.modified)).append("</time></td><td class=\"g\">");
            if (!r.folder) {
                h.append("<a href=\"").append(html(href)).append("?download\" download title=\"Download ")
                        .append(html(r.name)).append("\" aria-label=\"Download ").append(html(r.name))
                        .append("\">\u2193</a>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody></table>\n<footer>").append(count(folders, "folder")).append(", ")
                .append(count(entries.size() - folders, "file"));
        if (more > 0) {
            h.append("; ").append(more).append(" more not listed here (a WebDAV client lists them all)");
        }
        h.append("</footer>\n</body></html>\n");
        return h.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void column(StringBuilder h, String label, String key, String sort, boolean desc, String cls) {
        boolean on = key.equals(sort);
        String order = on && !desc ? "desc" : "asc";
        h.append("<th").append(cls).append(on ? " aria-sort=\"" + (desc ? "descending" : "ascending") + "\"" : "")
                .append("><a href=\"?sort=").append(key).append("&amp;order=").append(order).append("\">")
                .append(label).append(on ? (desc ? " \u25bc" : " \u25b2") : "").append("</a></th>");
    }

    /** Folders first, then files, each by the column asked for; names break ties. */
    private static Comparator<Resource> order(String sort, boolean desc) {
        Comparator<Resource> byName = Comparator.comparing((Resource r) -> r.name, String.CASE_INSENSITIVE_ORDER)
                .thenComparing(r -> r.name);
        Comparator<Resource> c;
        if (sort.equals("size")) {
            c = Comparator.comparingLong((Resource r) -> r.size).thenComparing(byName);
        } else if (sort.equals("modified")) {
            c = Comparator.comparing((Resource r) -> r.modified).thenComparing(byName);
        } else {
            c = byName;
        }
        if (desc) {
            c = c.reversed();
        }
        return Comparator.comparing((Resource r) -> !r.folder).thenComparing(c);
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    /** A size for people: bytes, then KiB, MiB, GiB, TiB with one decimal. */
    static String size(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** HTML text and attribute escaping (the five markup characters). */
    static String html(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&': b.append("&amp;"); break;
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '"': b.append("&quot;"); break;
                case '\'': b.append("&#39;"); break;
                default: b.append(c < 0x20 && c != '\t' ? '\ufffd' : c);
            }
        }
        return b.toString();
    }
}
