package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.order;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs only in the {@code postgres-jpa} run: proves that the variant really is what it claims, so the
 * other IT classes of that run test the demo on PostgreSQL with the JPA store and not silently on H2
 * and the memory store.
 */
@ExtendWith(ShopServer.class)
class PostgresVariantIT {

    private final ShopClient shop = new ShopClient();

    @BeforeAll
    static void onlyInThePostgresRun() {
        assertEquals("postgres-jpa", ShopServer.variant(), "this class belongs to the postgres-jpa run");
    }

    private static long count(String sql, String param) throws Exception {
        try (Connection c = DriverManager.getConnection(ShopServer.PG_URL, "postgres", "");
                PreparedStatement s = c.prepareStatement(sql.replace("$", ShopServer.SCHEMA))) {
            if (param != null) {
                s.setString(1, param);
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Test
    void ordersAndIdempotencyRecordsAreRowsInPostgres() throws Exception {
        String customer = unique("pg");
        long recordsBefore = count("SELECT count(*) FROM $.idempotency_record WHERE status = 'COMPLETED'", null);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = shop.postJson("orders", order(customer, "BEANS", 3), key);
        HttpResponse<String> again = shop.postJson("orders", order(customer, "BEANS", 3), key);

        assertEquals(201, first.statusCode());
        assertTrue(ShopClient.replayed(again));
        assertEquals(1, count("SELECT count(*) FROM $.shop_order WHERE customer = ?", customer));
        long recordsAfter = count("SELECT count(*) FROM $.idempotency_record WHERE status = 'COMPLETED'", null);
        assertEquals(recordsBefore + 1, recordsAfter, "the JPA store wrote the order's record to PostgreSQL");
    }
}
