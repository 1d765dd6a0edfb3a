package dev.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 helpers. Every JVM has SHA-256, so failures here are bugs, not configuration. */
public final class Hashing {

    private static final HexFormat HEX = HexFormat.of();

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
        return HEX.formatHex(sha256().digest(bytes));
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
        MessageDigest md = sha256();
        for (String part : parts) {
            byte[] b = part.getBytes(StandardCharsets.UTF_8);
            md.update((byte) (b.length >>> 24));
            md.update((byte) (b.length >>> 16));
            md.update((byte) (b.length >>> 8));
            md.update((byte) b.length);
            md.update(b);
        }
        return HEX.formatHex(md.digest());
    }
}
