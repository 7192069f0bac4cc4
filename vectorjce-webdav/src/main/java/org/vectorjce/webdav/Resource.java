package org.vectorjce.webdav;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One file or folder as the server describes it: its attributes read once (symbolic links
 * followed as the filesystem follows them), its strong entity tag and its media type.
 */
final class Resource {
    final Path path;
    /** The name shown: the last path segment, or the title for the root. */
    final String name;
    final boolean folder;
    final long size;
    final Instant modified;
    final Instant created;
    /**
     * A strong validator (RFC 9110 section 8.8.3) from the size, the modification time to the
     * nanosecond and the file key: the served filesystem is read-only, so the same bytes keep
     * the same tag, and a file replaced in the image gets another.
     */
    final String etag;

    private Resource(Path path, String name, BasicFileAttributes a) {
        this.path = path;
        this.name = name;
        this.folder = a.isDirectory();
        this.size = folder ? 0 : a.size();
        this.modified = instant(a.lastModifiedTime());
        FileTime c = a.creationTime();
        this.created = c == null ? modified : instant(c);
        Object key = a.fileKey();
        this.etag = "\"" + Long.toHexString(size) + "-" + Long.toHexString(a.lastModifiedTime().to(TimeUnit.NANOSECONDS))
                + "-" + Integer.toHexString(key == null ? 0 : key.hashCode()) + "\"";
    }

    private static Instant instant(FileTime t) {
        try {
            return t.toInstant();
        } catch (ArithmeticException e) {
            return Instant.EPOCH;
        }
    }

    /** Reads {@code path}'s attributes, following a symbolic link. */
    static Resource of(Path path, String name) throws IOException {
        return new Resource(path, name, Files.readAttributes(path, BasicFileAttributes.class));
    }

    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("txt", "text/plain; charset=utf-8"), Map.entry("md", "text/markdown; charset=utf-8"),
            Map.entry("csv", "text/csv; charset=utf-8"), Map.entry("log", "text/plain; charset=utf-8"),
            Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("css", "text/css"),
            Map.entry("js", "text/javascript"), Map.entry("json", "application/json"),
            Map.entry("xml", "application/xml"), Map.entry("pdf", "application/pdf"),
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("svg", "image/svg+xml"),
            Map.entry("bmp", "image/bmp"), Map.entry("ico", "image/vnd.microsoft.icon"),
            Map.entry("mp3", "audio/mpeg"), Map.entry("ogg", "audio/ogg"), Map.entry("wav", "audio/wav"),
            Map.entry("flac", "audio/flac"), Map.entry("mp4", "video/mp4"), Map.entry("webm", "video/webm"),
            Map.entry("mkv", "video/x-matroska"), Map.entry("mov", "video/quicktime"),
            Map.entry("zip", "application/zip"), Map.entry("gz", "application/gzip"),
            Map.entry("7z", "application/x-7z-compressed"), Map.entry("tar", "application/x-tar"),
            Map.entry("doc", "application/msword"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
            Map.entry("odt", "application/vnd.oasis.opendocument.text"));

    /** The media type by the name's extension; {@code application/octet-stream} when unknown. */
    String contentType() {
        int dot = name.lastIndexOf('.');
        String t = dot < 0 ? null : TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        return t == null ? "application/octet-stream" : t;
    }
}
