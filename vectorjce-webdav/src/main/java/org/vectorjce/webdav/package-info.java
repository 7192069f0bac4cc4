/**
 * A read-only {@link java.nio.file.FileSystem} served over HTTP/1.1 as WebDAV class 1 (RFC 4918)
 * and as HTML pages: {@link org.vectorjce.webdav.FileServer}.
 *
 * <h2>What is served</h2>
 * <ul>
 * <li>{@code OPTIONS}: {@code DAV: 1} and the {@code Allow} list, the same for every path and
 *     without the token or credentials (it tells nothing of the files).</li>
 * <li>{@code PROPFIND} at depth 0 and 1 with {@code allprop}, {@code propname} or {@code prop}
 *     bodies (RFC 4918 section 9.1): creationdate (RFC 3339), displayname, getcontentlength,
 *     getcontenttype, getetag, getlastmodified (IMF-fixdate), resourcetype; other properties in
 *     a 404 propstat. Depth infinity on a folder (and a missing Depth, which means infinity) is
 *     refused with 403 and {@code <D:propfind-finite-depth/>}, as section 9.1 allows.</li>
 * <li>{@code GET} and {@code HEAD} of a file (RFC 9110): Content-Length, Last-Modified, a
 *     strong ETag, Accept-Ranges; single ranges (206 with Content-Range), several ranges (206
 *     {@code multipart/byteranges}, at most 16 ranges, more are ignored and the whole file sent),
 *     unsatisfiable ranges (416); If-Match, If-Unmodified-Since (412), If-None-Match,
 *     If-Modified-Since (304) and If-Range. {@code ?download} adds a Content-Disposition. Every
 *     file is sent with {@code nosniff}, and HTML, XHTML, SVG and XML files with a sandboxing
 *     Content-Security-Policy, so a page from the image never runs script as a page of the
 *     server's origin.</li>
 * <li>{@code GET} and {@code HEAD} of a folder: an HTML page (no script, font or image; a
 *     Content-Security-Policy of {@code default-src 'none'; style-src 'unsafe-inline'}). A folder
 *     asked for without its final {@code /} is redirected (301) to it.</li>
 * <li>PUT, DELETE, POST, PATCH, MKCOL, COPY, MOVE, PROPPATCH, LOCK, UNLOCK: 405 with
 *     {@code Allow}; nothing is written. Other methods: 501.</li>
 * </ul>
 *
 * <h2>Access</h2>
 * The token as the first path segment (404 without it or with a wrong one: the same answer as a
 * missing file, with no names in it), or HTTP Basic (401 with a challenge), only over TLS.
 * Paths are decoded segment by segment and refused (400) with dot segments in any spelling,
 * encoded separators or backslashes, NUL, bad escapes or invalid UTF-8; see {@code DavPath}.
 *
 * <h2>Why a server of its own</h2>
 * The JDK's {@code com.sun.net.httpserver} bounds header sizes and request times only through
 * system properties ({@code sun.net.httpserver.maxReqHeaders}, {@code maxReqTime} and others),
 * which are global to the JVM and which a library must not set, and it has no way to cut a
 * client that sends its head a byte at a time (slowloris) per server. This package's server is
 * small: a blocking socket per connection, a fixed 8 KiB input buffer, limits on every size a
 * client chooses, and a watchdog thread that enforces a deadline on each phase of a
 * connection.
 *
 * <h2>Limits (defaults; the builder changes them)</h2>
 * 128 connections (one more: 503 and closed); a request line of 8 KiB (414); 64 KiB and 100
 * header fields (431); request bodies of 64 KiB (413) with Content-Length only
 * (Transfer-Encoding: 411); 10 s to send a request's head, 30 s for the whole request, 30 s idle
 * between requests, 60 s for a write of the response that makes no progress (408 or a closed
 * connection). A malformed request is answered 400 and the connection closed.
 */
package org.vectorjce.webdav;
