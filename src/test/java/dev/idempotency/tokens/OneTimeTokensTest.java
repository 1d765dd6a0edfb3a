package dev.idempotency.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.Races;
import dev.idempotency.toolkit.StoreNodes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One-time tokens on every real store, each used as two nodes: a token issued on one node is consumed
 * on the other, and racing consumers use both.
 */
@Tag("services")
class OneTimeTokensTest {

    private static final Duration TTL = Duration.ofMinutes(5);

    private static OneTimeTokens on(StoreNodes store, int node) {
        return new OneTimeTokens(store.node(node), Clock.systemUTC());
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void aTokenIsConsumedOnceByItsOwnerOnAnyNode(StoreNodes store) {
        IssuedToken t = on(store, 0).issue("alice", TTL);
        assertThat(t.expiresAt()).isAfter(java.time.Instant.now().plus(TTL).minusSeconds(30));
        assertThat(on(store, 1).consume(t.token(), "alice")).isEqualTo(TokenCheck.CONSUMED);
        assertThat(on(store, 0).consume(t.token(), "alice")).isEqualTo(TokenCheck.USED);
        assertThat(on(store, 1).consume(t.token(), "alice")).isEqualTo(TokenCheck.USED);
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void anotherOwnerCannotConsumeItAndDoesNotBurnIt(StoreNodes store) {
        IssuedToken t = on(store, 0).issue("alice", TTL);
        assertThat(on(store, 1).consume(t.token(), "mallory")).isEqualTo(TokenCheck.FOREIGN);
        assertThat(on(store, 0).consume(t.token(), "alice")).isEqualTo(TokenCheck.CONSUMED);
        assertThat(on(store, 1).consume(t.token(), "mallory")).isEqualTo(TokenCheck.FOREIGN);
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void missingMalformedForgedAndTamperedTokensAreRefused(StoreNodes store) {
        OneTimeTokens tokens = on(store, 0);
        assertThat(tokens.consume(null, "alice")).isEqualTo(TokenCheck.MISSING);
        assertThat(tokens.consume("  ", "alice")).isEqualTo(TokenCheck.MISSING);
        assertThat(tokens.consume("not-a-token", "alice")).isEqualTo(TokenCheck.UNKNOWN);
        assertThat(tokens.consume("a.b.c", "alice")).isEqualTo(TokenCheck.UNKNOWN);
        // Two parts, but not the issued format: unknown, not "expired" (its tail read as an old expiry).
        assertThat(tokens.consume("forged.token", "alice")).isEqualTo(TokenCheck.UNKNOWN);
        assertThat(tokens.consume("AAAAAAAAAAAAAAAAAAAAAAA.zzzzzz", "alice")).isEqualTo(TokenCheck.UNKNOWN);
        IssuedToken t = tokens.issue("alice", TTL);
        String id = t.token().substring(0, t.token().indexOf('.'));
        // A later expiry written into a real token's text addresses no record.
        String extended =
                id + "." + Long.toString(t.expiresAt().plus(Duration.ofDays(1)).toEpochMilli(), 36);
        assertThat(tokens.consume(extended, "alice")).isEqualTo(TokenCheck.UNKNOWN);
        // The random part alone is not a token either.
        assertThat(tokens.consume(id, "alice")).isEqualTo(TokenCheck.UNKNOWN);
        assertThat(tokens.consume(t.token(), "alice")).isEqualTo(TokenCheck.CONSUMED);
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void anExpiredTokenIsRefusedAsExpired(StoreNodes store) throws Exception {
        IssuedToken t = on(store, 0).issue("alice", Duration.ofMillis(300));
        IssuedToken used = on(store, 0).issue("alice", Duration.ofMillis(300));
        assertThat(on(store, 1).consume(used.token(), "alice")).isEqualTo(TokenCheck.CONSUMED);
        Thread.sleep(700);
        assertThat(on(store, 1).consume(t.token(), "alice")).isEqualTo(TokenCheck.EXPIRED);
        assertThat(on(store, 0).consume(used.token(), "alice")).isEqualTo(TokenCheck.EXPIRED);
        assertThat(on(store, 0).consume(t.token(), "mallory")).isEqualTo(TokenCheck.EXPIRED);
    }

    /**
     * Every token is consumed at one instant by 8 threads on both nodes, half as its owner and half as
     * another user: exactly one owner thread wins each token; no other thread ever does.
     */
    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void racingConsumersOfOneTokenHaveExactlyOneWinner(StoreNodes store) throws Exception {
        int threads = 8;
        int tokens = store == StoreNodes.MEMORY ? 1000 : 150;
        List<IssuedToken> issued = new ArrayList<>();
        for (int i = 0; i < tokens; i++) {
            issued.add(on(store, i).issue("owner-" + (i % 7), TTL));
        }
        AtomicIntegerArray wins = new AtomicIntegerArray(tokens);
        AtomicIntegerArray foreignWins = new AtomicIntegerArray(tokens);
        AtomicIntegerArray used = new AtomicIntegerArray(tokens);
        Races.rounds(threads, tokens, t -> on(store, t), (node, me, i) -> {
            boolean owner = me % 4 < 2;
            String who = owner ? "owner-" + (i % 7) : "intruder-" + me;
            TokenCheck c = node.consume(issued.get(i).token(), who);
            if (c == TokenCheck.CONSUMED) {
                (owner ? wins : foreignWins).incrementAndGet(i);
            } else if (c == TokenCheck.USED) {
                used.incrementAndGet(i);
            } else {
                assertThat(c).isEqualTo(owner ? TokenCheck.USED : TokenCheck.FOREIGN);
            }
        });
        for (int i = 0; i < tokens; i++) {
            assertThat(wins.get(i)).as("owner wins of token %d", i).isEqualTo(1);
            assertThat(foreignWins.get(i)).as("foreign wins of token %d", i).isZero();
            assertThat(used.get(i))
                    .as("owner threads told 'used' for token %d", i)
                    .isEqualTo(threads / 2 - 1);
        }
    }
}
