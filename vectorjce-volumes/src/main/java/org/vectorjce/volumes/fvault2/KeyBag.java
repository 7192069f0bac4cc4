package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.Base64;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.vectorjce.volumes.CorruptHeaderException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The XML property lists of Core Storage's encrypted metadata, read with the JDK's DOM parser
 * with DTDs and external entities off: a {@code <!DOCTYPE>} is refused, nothing outside the text
 * is ever fetched (OWASP's XXE prevention settings for {@code DocumentBuilderFactory}). A property
 * is what cryptsetup's {@code _search_xml} finds: the first {@code <key>NAME</key>} in document
 * order whose next element is {@code <TYPE ...>} with text.
 *
 * <ul>
 * <li>Block 0x0019, the key bag: {@code PassphraseWrappedKEKStruct} (base64 of 284 bytes: the
 *     PBKDF2 salt at 8, the KEK wrapped (RFC 3394) under the passphrase's key at 32, the PBKDF2
 *     iterations at 168) and {@code KEKWrappedVolumeKeyStruct} (base64 of 256 bytes: the volume
 *     key's first half wrapped under the KEK at 8). cryptsetup's {@code _parse_metadata_block_0x0019}.</li>
 * <li>Block 0x001A: {@code com.apple.corestorage.lv.size} (an integer in hexadecimal, as
 *     {@code strtoull(s, NULL, 16)} reads it) and {@code com.apple.corestorage.lv.familyUUID}.
 *     cryptsetup's {@code _parse_metadata_block_0x001a}.</li>
 * </ul>
 */
final class KeyBag {
    static final int SALT = 16, WRAPPED = 24, PWK = 284, KWVK = 256;

    private KeyBag() {
    }

    /** The passphrase entry of the key bag (the first, as cryptsetup reads it). Not secret. */
    record Passphrase(byte[] salt, long iterations, byte[] wrappedKek, byte[] wrappedVolumeKey) {
    }

    /** The logical volume's size in bytes and its family UUID (lower case, and its 16 bytes). */
    record LogicalVolume(long size, String familyUuid, byte[] familyUuidBytes) {
    }

    static Passphrase passphrase(String xml) throws CorruptHeaderException {
        Document d = parse(xml, "key bag (block type 0x0019)");
        byte[] pwk = data(d, "PassphraseWrappedKEKStruct", PWK);
        byte[] kwvk = data(d, "KEKWrappedVolumeKeyStruct", KWVK);
        long iters = CoreStorage.u32(pwk, 168);
        if (iters == 0) {
            throw new CorruptHeaderException("The key bag's PBKDF2 iteration count is 0");
        }
        return new Passphrase(Arrays.copyOfRange(pwk, 8, 8 + SALT), iters, Arrays.copyOfRange(pwk, 32, 32 + WRAPPED),
                Arrays.copyOfRange(kwvk, 8, 8 + WRAPPED));
    }

    static LogicalVolume logicalVolume(String xml) throws CorruptHeaderException {
        Document d = parse(xml, "logical volume's XML (block type 0x001A)");
        String s = property(d, "com.apple.corestorage.lv.size", "integer");
        long size = strtoull16(s);
        if (size == 0 || size == -1) {
            throw new CorruptHeaderException("The logical volume's size '" + clip(s) + "' is not a size");
        }
        String u = property(d, "com.apple.corestorage.lv.familyUUID", "string");
        byte[] b = parseUuid(u);
        if (b == null) {
            throw new CorruptHeaderException("The logical volume's family UUID '" + clip(u) + "' is not a UUID");
        }
        return new LogicalVolume(size, unparseUuid(b), b);
    }

    private static Document parse(String xml, String what) throws CorruptHeaderException {
        try {
            // the JDK's own parser, whatever the class path holds (a Xerces jar would be found by newInstance)
            DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
            // OWASP XXE cheat sheet, JAXP DocumentBuilderFactory: no DOCTYPE at all, hence no entity or DTD
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entity " + systemId + " refused");
            });
            b.setErrorHandler(new ErrorHandler() {   // the default handler prints to stderr
                @Override public void warning(SAXParseException e) { }
                @Override public void error(SAXParseException e) throws SAXException { throw e; }
                @Override public void fatalError(SAXParseException e) throws SAXException { throw e; }
            });
            return b.parse(new InputSource(new StringReader(xml)));
        } catch (SAXParseException e) {
            throw new CorruptHeaderException("The " + what + " is not well-formed XML or has a DOCTYPE (refused): "
                    + oneLine(e.getMessage()) + " (line " + e.getLineNumber() + ")");
        } catch (SAXException | IOException e) {
            throw new CorruptHeaderException("The " + what + " is refused: " + oneLine(e.getMessage()));
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("The JDK's XML parser lacks the XXE-safe settings", e);
        }
    }

    /** The base64 {@code <data>} of {@code key}, which must decode to {@code size} bytes. */
    private static byte[] data(Document d, String key, int size) throws CorruptHeaderException {
        String s = property(d, key, "data");
        byte[] b;
        try {
            // strict base64 once the white space is gone, as cryptsetup's crypt_base64_decode (which refuses any
            // other character); the MIME decoder would skip them silently
            b = Base64.getDecoder().decode(s.replaceAll("[ \t\r\n]", ""));
        } catch (IllegalArgumentException e) {
            throw new CorruptHeaderException("The key bag's " + key + " is not base64: " + e.getMessage());
        }
        if (b.length != size) {
            throw new CorruptHeaderException("The key bag's " + key + " is " + b.length + " bytes (" + size
                    + " expected)");
        }
        return b;
    }

    /** The text of the first {@code <type>} element that follows {@code <key>name</key>}. */
    private static String property(Document d, String name, String type) throws CorruptHeaderException {
        NodeList keys = d.getElementsByTagName("key");
        for (int i = 0; i < keys.getLength(); i++) {
            Element k = (Element) keys.item(i);
            if (!name.equals(k.getTextContent())) {
                continue;
            }
            Node n = k.getNextSibling();
            while (n != null && n.getNodeType() != Node.ELEMENT_NODE) {
                n = n.getNextSibling();
            }
            if (n != null && n.getNodeName().equals(type) && !n.getTextContent().isEmpty()) {
                return n.getTextContent();
            }
        }
        throw new CorruptHeaderException("The encrypted metadata has no <" + type + "> for " + name);
    }

    /** C's {@code strtoull(s, NULL, 16)}: spaces, an optional sign and {@code 0x}, hex digits; -1 on overflow. */
    static long strtoull16(String s) {
        int i = 0, n = s.length();
        while (i < n && (s.charAt(i) == ' ' || (s.charAt(i) >= '\t' && s.charAt(i) <= '\r'))) {
            i++;
        }
        boolean neg = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        if (i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) | 0x20) == 'x' && hex(s.charAt(i + 2)) >= 0) {
            i += 2;
        }
        long v = 0;
        for (; i < n && hex(s.charAt(i)) >= 0; i++) {
            if (Long.compareUnsigned(v, 0x0fff_ffff_ffff_ffffL) > 0) {
                return -1;
            }
            v = v << 4 | hex(s.charAt(i));
        }
        return neg ? -v : v;
    }

    /** libuuid's {@code uuid_parse}: 36 characters, hyphens at 8, 13, 18 and 23, hex digits elsewhere; or null. */
    static byte[] parseUuid(String s) {
        if (s.length() != 36) {
            return null;
        }
        byte[] b = new byte[16];
        int j = 0;
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int v = hex(c);
            if (v < 0) {
                return null;
            }
            b[j / 2] |= (byte) ((j % 2 == 0) ? v << 4 : v);
            j++;
        }
        return b;
    }

    /** libuuid's {@code uuid_unparse}: lower-case hex in byte order, hyphenated 8-4-4-4-12. */
    static String unparseUuid(byte[] b) {
        StringBuilder s = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                s.append('-');
            }
            s.append(Character.forDigit((b[i] >> 4) & 15, 16)).append(Character.forDigit(b[i] & 15, 16));
        }
        return s.toString();
    }

    private static int hex(char c) {
        return c < 128 ? Character.digit(c, 16) : -1;
    }

    private static String clip(String s) {
        String t = oneLine(s);
        return t.length() > 60 ? t.substring(0, 60) + "..." : t;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").strip();
    }
}
