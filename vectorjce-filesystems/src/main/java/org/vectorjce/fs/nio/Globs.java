package org.vectorjce.fs.nio;

import java.util.regex.PatternSyntaxException;

/**
 * A glob, in the syntax {@link java.nio.file.FileSystem#getPathMatcher} documents, as a regular
 * expression over a path string: {@code *} any characters but {@code '/'}, {@code **} any
 * characters, {@code ?} one character but {@code '/'}, {@code [abc]} / {@code [a-z]} /
 * {@code [!a]} one character of (or not of) a set never matching {@code '/'}, {@code {a,b}} one of
 * the comma-separated subpatterns (not nested), {@code \} the next character literally.
 */
final class Globs {
    private static final String REGEX_META = "\\^$.|?*+()[]{}";

    private Globs() {
    }

    static String toRegex(String glob) {
        StringBuilder re = new StringBuilder("^");
        boolean inGroup = false;
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i++);
            switch (c) {
                case '\\':
                    if (i == glob.length()) {
                        throw new PatternSyntaxException("No character to escape", glob, i - 1);
                    }
                    literal(re, glob.charAt(i++));
                    break;
                case '*':
                    if (i < glob.length() && glob.charAt(i) == '*') {
                        re.append(".*");
                        i++;
                    } else {
                        re.append("[^/]*");
                    }
                    break;
                case '?':
                    re.append("[^/]");
                    break;
                case '[':
                    i = bracket(glob, i, re);
                    break;
                case '{':
                    if (inGroup) {
                        throw new PatternSyntaxException("Cannot nest groups", glob, i - 1);
                    }
                    re.append("(?:(?:");
                    inGroup = true;
                    break;
                case '}':
                    if (inGroup) {
                        re.append("))");
                        inGroup = false;
                    } else {
                        literal(re, c);
                    }
                    break;
                case ',':
                    if (inGroup) {
                        re.append(")|(?:");
                    } else {
                        literal(re, c);
                    }
                    break;
                default:
                    literal(re, c);
            }
        }
        if (inGroup) {
            throw new PatternSyntaxException("Missing '}'", glob, i - 1);
        }
        return re.append('$').toString();
    }

    private static void literal(StringBuilder re, char c) {
        if (REGEX_META.indexOf(c) >= 0) {
            re.append('\\');
        }
        re.append(c);
    }

    /**
     * The set from {@code glob[i]} (just after {@code '['}) to its {@code ']'}, as the intersection
     * of "not '/'" with it; the index after the {@code ']'}.
     */
    private static int bracket(String glob, int i, StringBuilder re) {
        int start = i - 1;
        re.append("[[^/]&&[");
        if (i < glob.length() && glob.charAt(i) == '!') {
            re.append('^');
            i++;
        } else if (i < glob.length() && glob.charAt(i) == '^') {
            re.append("\\^");
            i++;
        }
        if (i < glob.length() && glob.charAt(i) == '-') {
            re.append('-');
            i++;
        }
        boolean inRange = false;
        char last = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i++);
            if (c == ']') {
                re.append("]]");
                return i;
            }
            if (c == '/') {
                throw new PatternSyntaxException("Explicit 'name separator' in class", glob, i - 1);
            }
            if (c == '\\' || c == '[' || c == '&' || c == '^') {
                re.append('\\');
            }
            if (c == '-' && !inRange && last != 0) {
                if (i < glob.length() && glob.charAt(i) == ']') {
                    re.append('-'); // a trailing '-' is itself
                    continue;
                }
                re.append('-');
                inRange = true;
                continue;
            }
            if (inRange) {
                if (c < last) {
                    throw new PatternSyntaxException("Invalid range", glob, i - 1);
                }
                inRange = false;
                last = 0;
            } else {
                last = c;
            }
            re.append(c);
        }
        throw new PatternSyntaxException("Missing ']'", glob, start);
    }
}
