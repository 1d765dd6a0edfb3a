package demo;

/** A charge's receipt, as the README's {@code charge} returns one: replayed through JSON-B. */
public record Receipt(String id, String orderId, long cents) {}
