package dev.idempotency.internal.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** SHA-256 helpers. Every JVM has SHA-256, so failures here are bugs, not configuration. */
public final class Hashing {

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    /**
     * Cloned for each use: {@code MessageDigest.getInstance} looks the provider up and builds the
     * implementation by reflection on every call, which cost more than the hashing itself.
     */
    private static final MessageDigest PROTOTYPE = newSha256();

    private Hashing() {}

    /** A fresh SHA-256 digest. */
    public static MessageDigest sha256() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newSha256();
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }

    /** Lower-case hex SHA-256 of the bytes. */
    public static String sha256Hex(byte[] bytes) {
        return hex(sha256().digest(bytes));
    }

    /**
     * Lower-case hex of the bytes. Written out rather than {@code HexFormat.formatHex}, which builds
     * the text through a {@code StringBuilder} char by char; this is on the path of every guarded call.
     */
    public static String hex(byte[] bytes) {
        byte[] text = new byte[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            text[2 * i] = HEX_DIGITS[(bytes[i] >> 4) & 0xf];
            text[2 * i + 1] = HEX_DIGITS[bytes[i] & 0xf];
        }
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Lower-case hex SHA-256 of the UTF-8 text. */
    public static String sha256Hex(String text) {
        return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Lower-case hex SHA-256 of several parts, each length-prefixed so that no two different part
     * lists produce the same input ("ab","c" and "a","bc" differ).
     */
    public static String sha256Hex(String... parts) {
        return sha256Hex(lengthPrefixed(parts));
    }

    /**
     * {@code sha256Hex(first..., last)} where {@code prefix} is {@link #lengthPrefixed} of the first
     * parts: the same digest, without encoding the parts that do not change again.
     */
    static String sha256Hex(byte[] prefix, String last) {
        byte[] encoded = last.getBytes(StandardCharsets.UTF_8);
        byte[] input = Arrays.copyOf(prefix, prefix.length + 4 + encoded.length);
        put(encoded, input, prefix.length);
        return sha256Hex(input);
    }

    /** The parts, each as its UTF-8 length (4 bytes, big-endian) followed by its UTF-8 bytes. */
    static byte[] lengthPrefixed(String... parts) {
        // One buffer and one digest call: feeding the digest byte by byte cost as much as the hashing.
        byte[][] encoded = new byte[parts.length][];
        int size = 0;
        for (int i = 0; i < parts.length; i++) {
            encoded[i] = parts[i].getBytes(StandardCharsets.UTF_8);
            size += 4 + encoded[i].length;
        }
        byte[] input = new byte[size];
        int at = 0;
        for (byte[] b : encoded) {
            at = put(b, input, at);
        }
        return input;
    }

    /** Writes the length of {@code b} and {@code b} at {@code at}; returns the position after them. */
    private static int put(byte[] b, byte[] input, int at) {
        input[at++] = (byte) (b.length >>> 24);
        input[at++] = (byte) (b.length >>> 16);
        input[at++] = (byte) (b.length >>> 8);
        input[at++] = (byte) b.length;
        System.arraycopy(b, 0, input, at, b.length);
        return at + b.length;
    }
}
