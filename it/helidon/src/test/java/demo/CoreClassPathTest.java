package demo;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The core variant runs with no Servlet and no JTA API anywhere on its class path. */
@EnabledIfSystemProperty(named = "it.variant", matches = "core")
class CoreClassPathTest {

    @Test
    void noServletApi() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("jakarta.servlet.ServletContainerInitializer"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("jakarta.servlet.http.HttpServletRequest"));
    }

    @Test
    void noJtaApi() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("jakarta.transaction.Synchronization"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("jakarta.transaction.TransactionManager"));
    }
}
