package demo;

/**
 * A new order: {@code ref} names it for the execution count, {@code holdMillis} keeps the resource method
 * busy so that concurrent repeats overlap.
 */
public record OrderRequest(String ref, long cents, long holdMillis) {}
