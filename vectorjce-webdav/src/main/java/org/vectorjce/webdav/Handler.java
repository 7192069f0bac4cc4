package org.vectorjce.webdav;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a request asks of the served tree, once its head and body are read: the path checked and
 * resolved, the right to read checked ({@link Access}), then the method. WebDAV class 1 read-only
 * (RFC 4918): OPTIONS, PROPFIND, GET and HEAD are served; every method that writes is answered
 * 405 with the Allow list and touches nothing; any other method is 501.
 */
final class Handler {
    static final String ALLOW = "OPTIONS, GET, HEAD, PROPFIND";
    /** The methods of HTTP and WebDAV that change a resource (RFC 9110 section 9.3, RFC 4918 section 9). */
    static final Set<String> WRITES = Set.of("PUT", "DELETE", "POST", "PATCH", "MKCOL", "COPY", "MOVE", "PROPPATCH",
            "LOCK", "UNLOCK");
    private static final byte[] FINITE_DEPTH = ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<D:error xmlns:D=\"DAV:\"><D:propfind-finite-depth/></D:error>\n").getBytes(StandardCharsets.UTF_8);

    private final Path root;
    private final Access access;
    private final String title;
    private final Map<String, String> facts;

    Handler(Path root, Access access, String title, Map<String, String> facts) {
        this.root = root;
        this.access = access;
        this.title = title;
        this.facts = facts;
    }

    /** Whether the method is one this server answers (the others' bodies are never read). */
    static boolean served(String method) {
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS") || method.equals("PROPFIND");
    }

    void handle(Request req, Response res, byte[] body) throws IOException {
        if (req.target.equals("*")) {
            if (!req.method.equals("OPTIONS")) {
                throw HttpError.bad("the target * is for OPTIONS only");
            }
            options(res);
            return;
        }
        DavPath path = DavPath.parse(req.target);
        if (req.method.equals("OPTIONS")) {
            // the same answer for every path, so it tells nothing; some clients (Windows' WebClient)
            // ask it of the server's root before they use the address they were given
            options(res);
            return;
        }
        int skip = access.check(req, path);
        Path p = path.resolve(root, skip);
        List<String> names = path.segments.subList(skip, path.segments.size());
        switch (req.method) {
            case "GET":
            case "HEAD":
                get(req, res, path, names, p);
                return;
            case "PROPFIND":
                propfind(req, res, names, p, body);
                return;
            default:
                if (WRITES.contains(req.method)) {
                    res.header("Allow", ALLOW);
                    res.text(405, "this server is read-only");
                } else {
                    res.text(501, "the method is not served here");
                }
        }
    }

    private static void options(Response res) throws IOException {
        // RFC 4918 section 10.1: class 1 only (no locks: nothing can be written)
        res.header("DAV", "1").header("Allow", ALLOW).header("MS-Author-Via", "DAV");
        res.empty(200);
    }

    private void get(Request req, Response res, DavPath path, List<String> names, Path p) throws IOException {
        Resource r = stat(p, names);
        if (r.folder && !path.slash) {
            // a folder's page links its members relative to a URL ending in '/'
            res.header("Location", href(names, true));
            res.text(301, "moved");
            return;
        }
        if (!r.folder) {
            if (path.slash) {
                throw new HttpError(404, "not found", false);
            }
            FileGet.serve(req, res, r, path.param("download") != null);
            return;
        }
        List<Resource> entries = new ArrayList<>();
        long more = 0;
        try (DirectoryStream<Path> d = Files.newDirectoryStream(p)) {
            for (Path e : d) {
                if (entries.size() >= FolderPage.MAX_ENTRIES) {
                    more++;
                    continue;
                }
                Resource m = member(e);
                if (m != null) {
                    entries.add(m);
                }
            }
        } catch (DirectoryIteratorException e) {
            throw new HttpError(500, "the folder could not be read", true);
        } catch (IOException e) {
            throw new HttpError(500, "the folder could not be read", false);
        }
        byte[] page = FolderPage.render(title, facts, access.prefix(), names, entries, more, path);
        res.header("Content-Security-Policy", FolderPage.CSP).header("Cache-Control", "private, no-cache");
        res.send(200, "text/html; charset=utf-8", page);
    }

    private void propfind(Request req, Response res, List<String> names, Path p, byte[] body) throws IOException {
        String depth = req.header("depth");
        depth = depth == null ? "infinity" : depth.strip().toLowerCase(Locale.ROOT);
        if (!depth.equals("0") && !depth.equals("1") && !depth.equals("infinity")) {
            throw new HttpError(400, "Depth is 0, 1 or infinity", false);
        }
        Propfind pf = Propfind.parse(body);
        Resource r = stat(p, names);
        if (r.folder && depth.equals("infinity")) {
            // RFC 4918 section 9.1: a server may refuse depth infinity, with this precondition code
            res.send(403, "application/xml; charset=utf-8", FINITE_DEPTH);
            return;
        }
        String self = href(names, r.folder);
        OutputStream out = res.header("Content-Type", "application/xml; charset=utf-8").unsized(207);
        Writer w = Propfind.open(out);
        pf.response(w, self, r);
        if (r.folder && depth.equals("1")) {
            try (DirectoryStream<Path> d = Files.newDirectoryStream(p)) {
                for (Path e : d) {
                    Resource m = member(e);
                    if (m != null) {
                        pf.response(w, self + DavPath.encode(m.name) + (m.folder ? "/" : ""), m);
                    }
                }
            } catch (DirectoryIteratorException | IOException e) {
                // the head is out: a broken folder ends the connection instead of a short listing
                w.flush();
                res.close = true;
                throw new IOException("the folder could not be read");
            }
        }
        Propfind.close(w);
        out.close();
    }

    /** A folder's member, or null when its attributes cannot be read (a dangling link): it is left out. */
    private static Resource member(Path e) {
        Path name = e.getFileName();
        if (name == null) {
            return null;
        }
        try {
            return Resource.of(e, name.toString());
        } catch (IOException | RuntimeException x) {
            return null;
        }
    }

    /** The resource at {@code p}; 404 when there is none, 403 when the filesystem denies it, 500 when it cannot be read. */
    private Resource stat(Path p, List<String> names) throws HttpError {
        try {
            return Resource.of(p, names.isEmpty() ? title : names.get(names.size() - 1));
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw new HttpError(404, "not found", false);
        } catch (AccessDeniedException e) {
            throw new HttpError(403, "forbidden", false);
        } catch (IOException | RuntimeException e) {
            throw new HttpError(500, "the file could not be read", false);
        }
    }

    /** The absolute URL path of a resource, percent-encoded, a folder's ending in {@code /}. */
    private String href(List<String> names, boolean folder) {
        StringBuilder s = new StringBuilder(access.prefix());
        for (String n : names) {
            s.append(DavPath.encode(n)).append('/');
        }
        if (!folder && !names.isEmpty()) {
            s.setLength(s.length() - 1);
        }
        return s.toString();
    }
}
