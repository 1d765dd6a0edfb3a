package dev.idempotency.internal.jaxrs;

import java.util.List;

/**
 * Parses the {@code Idempotency-Key} header. Accepted forms:
 *
 * <ul>
 *   <li>an RFC 9651 sf-string, as draft-ietf-httpapi-idempotency-key-header specifies: {@code
 *       "8e03978e-40d5-43e8-bc93-6894a57f9324"}, with {@code \"} and {@code \\} as the only escapes;
 *   <li>a bare token as Stripe and most clients send it: visible ASCII ({@code 0x21-0x7E}) except
 *       {@code "} and {@code ,}, so that two keys merged into one line by a proxy are never taken as one.
 * </ul>
 *
 * The key (without quotes and escapes) must have 1 to {@code maxLength} characters. Surrounding spaces
 * and tabs are ignored. More than one header line is an error: the request would have two keys.
 */
final class KeyHeader {

    private KeyHeader() {}

    /**
     * The outcome of parsing.
     *
     * @param key the client's key, or {@code null} when absent or invalid
     * @param problem why the header is invalid (without echoing its value), or {@code null}
     */
    public record Parsed(String key, String problem) {

        /** Whether no header was sent. */
        public boolean missing() {
            return key == null && problem == null;
        }
    }

    /**
     * Parses the header lines of a request.
     *
     * @param values the header's lines as received; {@code null} or empty when absent
     * @param headerName the header's name, for messages
     * @param maxLength the longest accepted key
     */
    public static Parsed parse(List<String> values, String headerName, int maxLength) {
        if (values == null || values.isEmpty()) {
            return new Parsed(null, null);
        }
        if (values.size() > 1) {
            return invalid(headerName + " was sent " + values.size() + " times; send exactly one " + headerName
                    + " header per request.");
        }
        String v = values.get(0) == null ? "" : strip(values.get(0));
        String key;
        if (v.startsWith("\"")) {
            key = sfString(v);
            if (key == null) {
                return invalid(headerName
                        + " starts with a quote but is not a valid structured-field string: it must end with"
                        + " the closing quote, contain only printable ASCII, and escape only \\\" and \\\\.");
            }
        } else {
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                if (c < 0x21 || c > 0x7E || c == '"' || c == ',') {
                    return invalid(headerName + " contains a character that is not allowed at position " + (i + 1)
                            + "; send a quoted string or a token of visible ASCII characters without"
                            + " spaces, quotes or commas, such as a UUID.");
                }
            }
            key = v;
        }
        if (key.isEmpty()) {
            return invalid(headerName + " is empty; send a unique value such as a random UUID.");
        }
        if (key.length() > maxLength) {
            return invalid(headerName + " is " + key.length() + " characters long; the limit is " + maxLength
                    + ". Send a shorter unique value such as a UUID (36 characters).");
        }
        return new Parsed(key, null);
    }

    private static Parsed invalid(String problem) {
        return new Parsed(null, problem);
    }

    /** Removes optional whitespace (space and tab) around a field value, as RFC 9110 does. */
    private static String strip(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
            from++;
        }
        while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
            to--;
        }
        return s.substring(from, to);
    }

    /** The content of an RFC 9651 sf-string that spans the whole value, or {@code null}. */
    private static String sfString(String v) {
        StringBuilder sb = new StringBuilder(v.length());
        for (int i = 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\') {
                if (++i >= v.length()) {
                    return null;
                }
                char next = v.charAt(i);
                if (next != '"' && next != '\\') {
                    return null;
                }
                sb.append(next);
            } else if (c == '"') {
                // The closing quote must end the value: parameters are not defined for this field.
                return i == v.length() - 1 ? sb.toString() : null;
            } else if (c < 0x20 || c > 0x7E) {
                return null;
            } else {
                sb.append(c);
            }
        }
        return null;
    }
}
