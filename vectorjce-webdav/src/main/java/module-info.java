/**
 * VectorJCE WebDAV: any read-only {@link java.nio.file.FileSystem} served over HTTP/1.1 as WebDAV
 * class 1, read-only (RFC 4918), and as an HTML page of each folder. The API is
 * {@link org.vectorjce.webdav.FileServer}. No dependency beyond the JDK's base and XML modules.
 */
module org.vectorjce.webdav {
    requires java.xml;

    exports org.vectorjce.webdav;
}
