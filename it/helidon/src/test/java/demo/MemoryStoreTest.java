package demo;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;

/** The README's checks on the default store. */
@HelidonTest
@AddConfig(key = "idempotency.store", value = "memory")
class MemoryStoreTest extends GuardChecks {}
