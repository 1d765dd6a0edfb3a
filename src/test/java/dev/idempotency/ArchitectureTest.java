package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering rules of the main sources, checked on every build: which package may depend on which.
 * A dependency is an import or a fully qualified name in code (comments and string literals are left
 * out, so Javadoc may still link across layers).
 */
class ArchitectureTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern REFERENCE = Pattern.compile("\\b((?:jakarta|javax|org\\.eclipse\\.microprofile|dev"
            + "\\.idempotency)(?:\\.[a-z][a-z0-9_]*)*)\\.[A-Z]");

    /** Container APIs: what core must not use (JSON-P and JSON-B are libraries, not the container). */
    private static final List<String> CONTAINER_APIS = List.of(
            "jakarta.enterprise",
            "jakarta.inject",
            "jakarta.interceptor",
            "jakarta.ws.rs",
            "jakarta.servlet",
            "jakarta.ejb",
            "jakarta.transaction",
            "jakarta.persistence",
            "jakarta.annotation",
            "javax.naming",
            "org.eclipse.microprofile");

    @Test
    void coreUsesNoContainerApiAndNoOuterLayer() {
        assertThat(violations(
                        "dev.idempotency.internal.core",
                        ref -> CONTAINER_APIS.stream().anyMatch(api -> within(ref, api))
                                || (within(ref, "dev.idempotency")
                                        && !ref.equals("dev.idempotency")
                                        && !within(ref, "dev.idempotency.internal.core")
                                        && !within(ref, "dev.idempotency.spi"))))
                .as("core may use the API, the SPI and plain libraries only")
                .isEmpty();
    }

    @Test
    void jaxrsDoesNotUseTheCdiGlue() {
        assertThat(violations("dev.idempotency.internal.jaxrs", ref -> within(ref, "dev.idempotency.internal.cdi")))
                .as("the JAX-RS entry point reaches the runtime through core.EntryPointServices")
                .isEmpty();
    }

    @Test
    void theTokensApiDoesNotUseItsHttpGlueNorTheEntryPoints() {
        assertThat(violations(
                        "dev.idempotency.tokens",
                        ref -> within(ref, "dev.idempotency.internal.tokens.http")
                                || within(ref, "dev.idempotency.internal.jaxrs")
                                || within(ref, "dev.idempotency.internal.cdi")
                                || within(ref, "jakarta.ws.rs")))
                .as("one-time tokens work in code without JAX-RS; their HTTP glue is tokens.http")
                .isEmpty();
        assertThat(violations(
                        "dev.idempotency.internal.tokens.http", ref -> within(ref, "dev.idempotency.internal.cdi")))
                .as("the token glue reaches the tokens through CDI lookups, not the cdi package")
                .isEmpty();
    }

    @Test
    void spiUsesOnlyTheApi() {
        assertThat(violations(
                        "dev.idempotency.spi",
                        ref -> within(ref, "dev.idempotency")
                                && !ref.equals("dev.idempotency")
                                && !within(ref, "dev.idempotency.spi")))
                .isEmpty();
    }

    @Test
    void theStoresSharedPackageUsesOnlyTheSpiAndTheApi() {
        assertThat(violations(
                        "dev.idempotency.internal.stores",
                        ref -> within(ref, "dev.idempotency")
                                && !ref.equals("dev.idempotency")
                                && !ref.equals("dev.idempotency.internal.stores")
                                && !within(ref, "dev.idempotency.spi")))
                .isEmpty();
    }

    /**
     * Every store package has the same parts: the primitives (classes that implement {@code
     * IdempotencyStore}, free of the container and of configuration), one {@code <Name>StoreSettings}
     * that reads its keys, and the startup and CDI glue ({@code <Name>Stores}, {@code <Name>StoreBean},
     * {@code <Name>StoreExtension}, {@code <Name>StoreBuildExtension} for CDI Lite). Only the settings and
     * the glue read configuration or use CDI.
     */
    @Test
    void everyStorePackageHasTheSameAnatomy() throws IOException {
        Pattern glue = Pattern.compile("\\w+Store(Settings|s|Bean|Extension|BuildExtension)\\.java");
        // The JPA store's own transactions need a CDI bean with @Transactional: the one exception.
        Set<String> allowed = Set.of("JtaTransactionRunner.java");
        for (String store : subpackages("dev.idempotency.internal.stores")) {
            Path dir = MAIN.resolve(store.replace('.', '/'));
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(f -> f.toString().endsWith(".java")).sorted().toList();
            }
            assertThat(files.stream().map(f -> f.getFileName().toString()))
                    .as("%s has one <Name>StoreSettings", store)
                    .filteredOn(n -> n.endsWith("StoreSettings.java"))
                    .hasSize(1);
            for (Path f : files) {
                String name = f.getFileName().toString();
                String code = code(f);
                if (name.endsWith("StoreSettings.java")) {
                    String type = name.substring(0, name.length() - ".java".length());
                    assertThat(code)
                            .as("%s.%s is a record read once by from(ConfigLookup)", store, type)
                            .containsPattern("public record " + type + "\\(")
                            .containsPattern("public static " + type + " from\\(ConfigLookup ");
                }
                boolean readsConfigOrCdi = code.contains("org.eclipse.microprofile.config")
                        || code.contains("ConfigLookup")
                        || code.contains("jakarta.enterprise")
                        || code.contains("jakarta.inject");
                if (readsConfigOrCdi) {
                    assertThat(glue.matcher(name).matches() || allowed.contains(name))
                            .as(
                                    "%s.%s reads configuration or uses CDI: only the settings and the glue may",
                                    store, name)
                            .isTrue();
                }
            }
        }
    }

    /** Every internal settings holder has one shape: a record read once by {@code from(ConfigLookup)}. */
    @Test
    void everyInternalSettingsTypeIsARecordReadByFrom() throws IOException {
        List<Path> holders;
        try (Stream<Path> s = Files.walk(MAIN.resolve("dev/idempotency/internal"))) {
            holders = s.filter(f -> f.getFileName().toString().endsWith("Settings.java"))
                    .sorted()
                    .toList();
        }
        assertThat(holders).hasSizeGreaterThanOrEqualTo(6);
        for (Path f : holders) {
            String type = f.getFileName().toString().replace(".java", "");
            assertThat(code(f))
                    .as("%s is a record read once by from(ConfigLookup)", type)
                    .containsPattern("record " + type + "\\(")
                    .containsPattern("static " + type + " from\\(ConfigLookup ");
        }
    }

    @Test
    void aStoreUsesOnlyTheSpiTheApiAndTheStoresSharedPackage() {
        List<String> stores = subpackages("dev.idempotency.internal.stores");
        assertThat(stores).contains("dev.idempotency.internal.stores.jpa", "dev.idempotency.internal.stores.memory");
        for (String store : stores) {
            assertThat(violations(
                            store,
                            ref -> within(ref, "dev.idempotency")
                                    && !ref.equals("dev.idempotency")
                                    && !ref.equals("dev.idempotency.internal.stores")
                                    && !within(ref, "dev.idempotency.spi")
                                    && !within(ref, store)))
                    .as("store package %s", store)
                    .isEmpty();
        }
    }

    @Test
    void everyPackageSaysWhetherItIsApiSpiOrInternal() throws IOException {
        List<String> unmarked = new ArrayList<>();
        List<Path> packages;
        try (Stream<Path> dirs = Files.walk(MAIN.resolve("dev/idempotency"))) {
            packages = dirs.filter(d -> Files.isDirectory(d) && hasJava(d))
                    .sorted()
                    .toList();
        }
        for (Path dir : packages) {
            Path info = dir.resolve("package-info.java");
            String first =
                    Files.exists(info) ? Files.readString(info).replaceFirst("(?s)^\\s*/\\*\\*\\s*\\*?\\s*", "") : "";
            if (!(first.startsWith("API") || first.startsWith("SPI") || first.startsWith("Internal"))) {
                unmarked.add(MAIN.relativize(dir).toString());
            }
        }
        assertThat(packages).hasSizeGreaterThan(15);
        assertThat(unmarked)
                .as("packages whose package-info.java does not start with API, SPI or Internal")
                .isEmpty();
    }

    /**
     * The public line is the package name: a package is internal exactly when it lies under {@code
     * dev.idempotency.internal}, so that a public type outside it is API or SPI and one inside it is
     * not, whatever its modifiers (the container instantiates many internal types, which must be public).
     */
    @Test
    void aPackageIsInternalExactlyWhenItIsUnderTheInternalPackage() throws IOException {
        List<String> misplaced = new ArrayList<>();
        int internal = 0;
        try (Stream<Path> dirs = Files.walk(MAIN.resolve("dev/idempotency"))) {
            for (Path dir : dirs.filter(d -> Files.isDirectory(d) && hasJava(d))
                    .sorted()
                    .toList()) {
                String pkg = MAIN.relativize(dir).toString().replace('/', '.');
                Path info = dir.resolve("package-info.java");
                boolean marked = Files.exists(info)
                        && Files.readString(info)
                                .replaceFirst("(?s)^\\s*/\\*\\*\\s*\\*?\\s*", "")
                                .startsWith("Internal");
                boolean named = within(pkg, "dev.idempotency.internal");
                if (marked != named) {
                    misplaced.add(pkg + (marked ? " says Internal" : " says API or SPI"));
                }
                internal += named ? 1 : 0;
            }
        }
        assertThat(internal).as("internal packages found").isGreaterThan(8);
        assertThat(misplaced)
                .as("packages whose package-info and place disagree: move internal code under"
                        + " dev.idempotency.internal, and keep API and SPI outside it")
                .isEmpty();
    }

    private static boolean hasJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theCheckSeesADependency() {
        // The rules above pass vacuously if references are not found at all.
        assertThat(violations("dev.idempotency.internal.jaxrs", ref -> within(ref, "dev.idempotency.internal.core")))
                .isNotEmpty();
        assertThat(violations("dev.idempotency.internal.cdi", ref -> within(ref, "jakarta.enterprise")))
                .isNotEmpty();
    }

    private static boolean within(String ref, String pkg) {
        return ref.equals(pkg) || ref.startsWith(pkg + ".");
    }

    /** "file: referenced package" for each reference in the package's own files that breaks the rule. */
    private static List<String> violations(String pkg, Predicate<String> forbidden) {
        Path dir = MAIN.resolve(pkg.replace('.', '/'));
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                Matcher m = REFERENCE.matcher(code(f));
                while (m.find()) {
                    if (forbidden.test(m.group(1))) {
                        found.add(f.getFileName() + ": " + m.group(1));
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found.stream().distinct().toList();
    }

    private static List<String> subpackages(String pkg) {
        Path dir = MAIN.resolve(pkg.replace('.', '/'));
        try (Stream<Path> dirs = Files.list(dir)) {
            return dirs.filter(Files::isDirectory)
                    .map(d -> pkg + "." + d.getFileName())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's text without comments, string literals and text blocks. */
    private static String code(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder code = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 2;
                code.append(' ');
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end;
            } else if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                i = end < 0 ? text.length() : end + 3;
                code.append("\"\"");
            } else if (text.charAt(i) == '"' || text.charAt(i) == '\'') {
                char quote = text.charAt(i++);
                while (i < text.length() && text.charAt(i) != quote) {
                    i += text.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                code.append(quote).append(quote);
            } else {
                code.append(text.charAt(i++));
            }
        }
        return code.toString();
    }
}
