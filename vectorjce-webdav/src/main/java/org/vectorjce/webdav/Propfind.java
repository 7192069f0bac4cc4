package org.vectorjce.webdav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * PROPFIND (RFC 4918 section 9.1): the request body read as one of {@code allprop} (also an
 * empty body), {@code propname} or {@code prop}, and the 207 multistatus written for a resource
 * and, at depth 1, its members. The live properties served are those of section 15:
 * creationdate, displayname, getcontentlength, getcontenttype, getetag, getlastmodified and
 * resourcetype (a folder has no content length, type or tag); any other property asked for is
 * listed under a 404 propstat.
 *
 * <p>The body is parsed by the JDK's DOM parser with DTDs refused outright (so no entity, no
 * external fetch, no expansion bomb) and secure processing on; it is at most 64 KiB.
 */
final class Propfind {
    static final String DAV = "DAV:";
    private static final List<String> FILE_PROPS = List.of("creationdate", "displayname", "getcontentlength",
            "getcontenttype", "getetag", "getlastmodified", "resourcetype");
    private static final List<String> FOLDER_PROPS = List.of("creationdate", "displayname", "getlastmodified",
            "resourcetype");

    private enum Kind { ALLPROP, PROPNAME, PROP }

    private final Kind kind;
    /** For {@code prop}: the names asked for, each {namespace, local name}. */
    private final List<String[]> names;

    private Propfind(Kind kind, List<String[]> names) {
        this.kind = kind;
        this.names = names;
    }

    /** Reads a PROPFIND body; 400 when it is not well-formed XML or not a DAV:propfind. */
    static Propfind parse(byte[] body) throws HttpError {
        if (body.length == 0) {
            return new Propfind(Kind.ALLPROP, List.of());
        }
        Element root;
        try {
            root = parser().parse(new InputSource(new ByteArrayInputStream(body))).getDocumentElement();
        } catch (SAXException | IOException e) {
            throw new HttpError(400, "the PROPFIND body is not well-formed XML without a DTD", false);
        }
        if (!is(root, "propfind")) {
            throw new HttpError(400, "the PROPFIND body is not a DAV:propfind", false);
        }
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                Element e = (Element) n;
                if (is(e, "allprop")) {
                    return new Propfind(Kind.ALLPROP, List.of());
                }
                if (is(e, "propname")) {
                    return new Propfind(Kind.PROPNAME, List.of());
                }
                if (is(e, "prop")) {
                    List<String[]> names = new ArrayList<>();
                    for (Node p = e.getFirstChild(); p != null; p = p.getNextSibling()) {
                        if (p instanceof Element) {
                            String ns = p.getNamespaceURI();
                            names.add(new String[] {ns == null ? "" : ns, p.getLocalName()});
                        }
                    }
                    return new Propfind(Kind.PROP, names);
                }
            }
        }
        throw new HttpError(400, "the PROPFIND body names none of allprop, propname, prop", false);
    }

    private static boolean is(Element e, String local) {
        return DAV.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
    }

    private static DocumentBuilder parser() throws HttpError {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            try {
                // the JDK's own bound on nesting (a 64 KiB body could otherwise nest 20,000 deep)
                f.setAttribute("jdk.xml.maxElementDepth", "64");
            } catch (IllegalArgumentException e) {
                // a parser without the property: the body's size still bounds the depth
            }
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            b.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("no external entities");
            });
            return b;
        } catch (ParserConfigurationException | IllegalArgumentException e) {
            throw new HttpError(500, "this Java runtime's XML parser cannot be hardened", false);
        }
    }

    /** Starts the multistatus body. */
    static Writer open(OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        w.write("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">\n");
        return w;
    }

    /** Ends the multistatus body. */
    static void close(Writer w) throws IOException {
        w.write("</D:multistatus>\n");
        w.flush();
    }

    /** One {@code response} element: the resource's href and its propstats. */
    void response(Writer w, String href, Resource r) throws IOException {
        w.write("<D:response><D:href>");
        w.write(escape(href));
        w.write("</D:href>");
        List<String> have = r.folder ? FOLDER_PROPS : FILE_PROPS;
        StringBuilder found = new StringBuilder(512);
        StringBuilder missing = new StringBuilder();
        switch (kind) {
            case ALLPROP:
                for (String p : have) {
                    value(found, p, r);
                }
                break;
            case PROPNAME:
                for (String p : have) {
                    found.append("<D:").append(p).append("/>");
                }
                break;
            default:
                int n = 0;
                for (String[] name : names) {
                    if (name[0].equals(DAV) && have.contains(name[1])) {
                        value(found, name[1], r);
                    } else if (name[0].equals(DAV)) {
                        missing.append("<D:").append(name[1]).append("/>");
                    } else if (name[0].isEmpty()) {
                        missing.append('<').append(name[1]).append(" xmlns=\"\"/>");
                    } else {
                        missing.append("<X").append(n).append(':').append(name[1]).append(" xmlns:X").append(n)
                                .append("=\"").append(escape(name[0])).append("\"/>");
                        n++;
                    }
                }
        }
        if (found.length() > 0 || missing.length() == 0) {
            w.write("<D:propstat><D:prop>");
            w.write(found.toString());
            w.write("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>");
        }
        if (missing.length() > 0) {
            w.write("<D:propstat><D:prop>");
            w.write(missing.toString());
            w.write("</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>");
        }
        w.write("</D:response>\n");
    }

    private static void value(StringBuilder s, String prop, Resource r) {
        s.append("<D:").append(prop).append('>');
        switch (prop) {
            case "creationdate": s.append(HttpDates.rfc3339(r.created)); break;
            case "displayname": s.append(escape(r.name)); break;
            case "getcontentlength": s.append(r.size); break;
            case "getcontenttype": s.append(escape(r.contentType())); break;
            case "getetag": s.append(escape(r.etag)); break;
            case "getlastmodified": s.append(HttpDates.format(r.modified)); break;
            case "resourcetype": s.append(r.folder ? "<D:collection/>" : ""); break;
            default: throw new IllegalArgumentException(prop);
        }
        s.append("</D:").append(prop).append('>');
    }

    /**
     * XML character data: markup characters escaped, and characters XML 1.0 cannot carry at all
     * (control characters, lone surrogates; section 2.2 of the XML specification) replaced by U+FFFD.
     */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '&') {
                b.append("&amp;");
            } else if (c == '<') {
                b.append("&lt;");
            } else if (c == '>') {
                b.append("&gt;");
            } else if (c == '"') {
                b.append("&quot;");
            } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xfffe || c == 0xffff) {
                b.append('\ufffd');
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                b.append('\ufffd');
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
