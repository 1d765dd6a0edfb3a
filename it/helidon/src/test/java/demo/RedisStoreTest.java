package demo;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;

/** The README's checks on the Redis store (Redis 7 on 127.0.0.1:6379, jedis in the app). */
@HelidonTest
@AddConfig(key = "idempotency.store", value = "redis")
@AddConfig(key = "idempotency.redis.uri", value = "redis://127.0.0.1:6379")
@AddConfig(key = "idempotency.redis.key-prefix", value = "helidon-it:")
class RedisStoreTest extends GuardChecks {}
