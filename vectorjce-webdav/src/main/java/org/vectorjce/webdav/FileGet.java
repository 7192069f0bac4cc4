package org.vectorjce.webdav;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * GET and HEAD of a file (RFC 9110 sections 9.3.1, 13 and 14): the validators (a strong ETag and
 * Last-Modified), the conditions in section 13.2.2's order (If-Match, If-Unmodified-Since,
 * If-None-Match, If-Modified-Since, then If-Range), and the body: whole (200), one range (206
 * with Content-Range), several ranges (206 multipart/byteranges, section 14.6) or none
 * satisfiable (416). The bytes are read through a {@link SeekableByteChannel} at their offsets,
 * a buffer of {@link #BUFFER} bytes at a time, never the whole file.
 */
final class FileGet {
    static final int BUFFER = 64 * 1024;

    private FileGet() {
    }

    static void serve(Request req, Response res, Resource r, boolean download) throws IOException {
        res.header("ETag", r.etag).header("Last-Modified", HttpDates.format(r.modified))
                .header("Accept-Ranges", "bytes").header("Cache-Control", "private, no-cache");
        if (active(r.contentType())) {
            // a page from the image never runs as a page of this origin: no script, an origin of its own
            res.header("Content-Security-Policy", "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'");
        }
        if (download) {
            res.header("Content-Disposition", disposition(r.name));
        }
        Instant modified = r.modified.truncatedTo(ChronoUnit.SECONDS);
        String ifMatch = req.header("if-match");
        if (ifMatch != null ? !matches(ifMatch, r.etag, true) : unmodifiedSinceFails(req, modified)) {
            res.text(412, "the file does not match the request's condition");
            return;
        }
        String ifNoneMatch = req.header("if-none-match");
        if (ifNoneMatch != null ? matches(ifNoneMatch, r.etag, false) : notModifiedSince(req, modified)) {
            res.empty(304);
            return;
        }
        List<long[]> ranges = Ranges.parse(req.header("range"), r.size);
        String ifRange = req.header("if-range");
        if (ranges != null && ifRange != null && !rangeStillValid(ifRange, r, modified)) {
            ranges = null;
        }
        String type = r.contentType();
        if (ranges == null) {
            res.header("Content-Type", type);
            OutputStream out = res.fixed(200, r.size);
            copy(r, out, new long[] {0, r.size - 1});
            out.flush();
        } else if (ranges.isEmpty()) {
            res.header("Content-Range", "bytes */" + r.size);
            res.text(416, "no requested range is within the file");
        } else if (ranges.size() == 1) {
            long[] a = ranges.get(0);
            res.header("Content-Type", type).header("Content-Range", contentRange(a, r.size));
            OutputStream out = res.fixed(206, a[1] - a[0] + 1);
            copy(r, out, a);
            out.flush();
        } else {
            multipart(res, r, type, ranges);
        }
    }

    private static void multipart(Response res, Resource r, String type, List<long[]> ranges) throws IOException {
        String boundary = "vectorjce-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        byte[][] heads = new byte[ranges.size()][];
        long length = 0;
        for (int i = 0; i < heads.length; i++) {
            long[] a = ranges.get(i);
            heads[i] = ("\r\n--" + boundary + "\r\nContent-Type: " + type + "\r\nContent-Range: "
                    + contentRange(a, r.size) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            length += heads[i].length + a[1] - a[0] + 1;
        }
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
        res.header("Content-Type", "multipart/byteranges; boundary=" + boundary);
        OutputStream out = res.fixed(206, length + tail.length);
        for (int i = 0; i < heads.length; i++) {
            out.write(heads[i]);
            copy(r, out, ranges.get(i));
        }
        out.write(tail);
        out.flush();
    }

    private static String contentRange(long[] a, long size) {
        return "bytes " + a[0] + "-" + a[1] + "/" + size;
    }

    /** Sends bytes {@code a[0]..a[1]} of the file; an image that ends early breaks the connection. */
    private static void copy(Resource r, OutputStream out, long[] a) throws IOException {
        long left = a[1] - a[0] + 1;
        if (left <= 0 || out == Response.NOWHERE) {
            return;
        }
        try (SeekableByteChannel ch = Files.newByteChannel(r.path)) {
            ch.position(a[0]);
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(BUFFER, left));
            while (left > 0) {
                b.clear().limit((int) Math.min(b.capacity(), left));
                int n = ch.read(b);
                if (n < 0) {
                    throw new IOException("the file ended before its size");
                }
                out.write(b.array(), 0, n);
                left -= n;
            }
        }
    }

    /**
     * Entity-tag list matching (RFC 9110 section 8.8.3.2): strong comparison for If-Match and
     * If-Range, weak for If-None-Match; {@code *} matches any current file.
     */
    static boolean matches(String header, String etag, boolean strong) {
        for (String t : header.split(",")) {
            t = t.strip();
            if (t.equals("*")) {
                return true;
            }
            if (t.startsWith("W/")) {
                if (strong) {
                    continue;
                }
                t = t.substring(2);
            }
            if (t.equals(etag)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unmodifiedSinceFails(Request req, Instant modified) {
        Instant since = HttpDates.parse(req.header("if-unmodified-since"));
        return since != null && modified.isAfter(since);
    }

    /** If-Modified-Since (section 13.1.3), for GET and HEAD: true when the file is not newer. */
    private static boolean notModifiedSince(Request req, Instant modified) {
        Instant since = HttpDates.parse(req.header("if-modified-since"));
        return since != null && !modified.isAfter(since);
    }

    /** If-Range (section 13.1.5): a strong tag that matches, or exactly the Last-Modified date. */
    private static boolean rangeStillValid(String ifRange, Resource r, Instant modified) {
        String v = ifRange.strip();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return !v.startsWith("W/") && v.equals(r.etag);
        }
        Instant date = HttpDates.parse(v);
        return date != null && date.equals(modified);
    }

    /**
     * Whether a browser would run the type as a document that can hold script (HTML, XHTML, SVG,
     * XML); every other type is sent with {@code nosniff}, so it is shown as what it is (text, an
     * image, a PDF, a video) or downloaded, never read as HTML.
     */
    static boolean active(String type) {
        return type.startsWith("text/html") || type.startsWith("image/svg") || type.contains("xml");
    }

    /** Content-Disposition for a download (RFC 6266): an ASCII fallback and the UTF-8 name (RFC 8187). */
    static String disposition(String name) {
        StringBuilder ascii = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '%' ? c : '_');
        }
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + DavPath.encode(name);
    }
}
