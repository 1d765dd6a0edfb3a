package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One home per fact: every configuration key the code defines is a row of exactly one reference table
 * in {@code docs/*.md}, every key such a table names exists in the code, the README stays a short front
 * door without key tables, and every relative link in the README and the docs resolves.
 *
 * <p>Keys in the code are found by these rules:
 *
 * <ul>
 *   <li>a {@code static final String NAME = "idempotency...."} declaration in {@code src/main/java} is
 *       a key (each settings class declares its keys so);
 *   <li>{@code NAME + "." + operation}, {@code NAME} being such a constant, is a per-operation key,
 *       written {@code <key>.<op>} (the docs may name the placeholder as they like: {@code
 *       <operation>});
 *   <li>a {@code ${idempotency....:default}} placeholder in {@code src/main/resources} is a key (the
 *       shipped Infinispan XML, whose placeholders are resolved from every {@code
 *       idempotency.infinispan.*} config key);
 *   <li>any other {@code "idempotency...."} literal in {@code src/main/java} must be one of the listed
 *       exclusions, or the test fails and asks to classify it.
 * </ul>
 *
 * <p>A documented key is a backticked {@code idempotency....} name (optionally ending in one {@code
 * .<placeholder>}) in the first cell of a Markdown table row whose first cell is nothing but backticked
 * names (separated by commas, slashes, "and" or "or"): the row of a key table. A row that only mentions
 * a key in a sentence ("authenticated, not in `idempotency.inspection.http.role`") is not one. Metric
 * names, which look like keys, are skipped.
 */
class DocsKeysTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path MAIN_JAVA = ROOT.resolve("src/main/java");
    private static final Path MAIN_RESOURCES = ROOT.resolve("src/main/resources");
    private static final Path DOCS = ROOT.resolve("docs");
    private static final Path README = ROOT.resolve("README.md");
    private static final long README_MAX_BYTES = 11_000;

    /** Source files whose {@code "idempotency."} literals are not configuration keys, and why. */
    private static final Map<String, String> NOT_KEY_FILES = Map.of(
            "dev/idempotency/ops/metrics/MetricNames.java",
            "metric names (MP Metrics / OpenTelemetry), listed in docs/operations.md's metrics table");

    /** Other {@code "idempotency."} literals that are not configuration keys, and why. */
    private static final Map<String, String> NOT_KEY_LITERALS = Map.of(
            "idempotency.infinispan.",
            "a prefix: InfinispanStoreBean hands every idempotency.infinispan.* key to the XML's placeholders",
            "idempotency.jpa.transaction",
            "retired: RetiredKeys refuses it at deployment, naming the operation setting that replaced it",
            "idempotency.infinispan.transaction",
            "retired: RetiredKeys refuses it at deployment, naming the operation setting that replaced it");

    /** Relative link targets that may be missing here, and why. */
    private static final Pattern LITERAL = Pattern.compile("\"(idempotency\\.[A-Za-z0-9.<>-]*)\"");

    private static final Pattern CONSTANT =
            Pattern.compile("static\\s+final\\s+String\\s+([A-Z][A-Z0-9_]*)\\s*=\\s*\"(idempotency\\.[^\"]*)\"\\s*;");
    private static final Pattern PER_OPERATION =
            Pattern.compile("(?:\\b([A-Z]\\w*)\\.)?\\b([A-Z][A-Z0-9_]*)\\s*\\+\\s*\"\\.\"\\s*\\+\\s*[a-z]\\w*");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(idempotency\\.[A-Za-z0-9.-]+)(?::[^}]*)?}");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern KEY_SHAPED =
            Pattern.compile("idempotency\\.[a-z0-9-]+(?:\\.[a-z0-9-]+)*(\\.<[^<>]+>)?");
    private static final Pattern ONLY_NAMES = Pattern.compile("[\\s,/]*((and|or)[\\s,/]+)*[\\s,/]*");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyKeyIsDocumentedInExactlyOneReferenceTable() {
        CodeKeys code = codeKeys();
        Map<String, List<String>> documented = documentedKeys(markdownDocs(), code.notKeys());

        Set<String> missing = new TreeSet<>(code.keys());
        missing.removeAll(documented.keySet());
        Map<String, List<String>> duplicated = new TreeMap<>();
        documented.forEach((key, places) -> {
            if (places.size() > 1) {
                duplicated.put(key, places);
            }
        });
        Set<String> stale = new TreeSet<>(documented.keySet());
        stale.removeAll(code.keys());

        assertThat(code.keys()).as("key constants found in src/main").hasSizeGreaterThan(50);
        assertSoftly(softly -> {
            softly.assertThat(code.unclassified())
                    .as("'idempotency.' literals in src/main/java that are neither a key constant nor a listed"
                            + " exclusion (declare them as key constants, or add them to NOT_KEY_LITERALS with"
                            + " the reason)")
                    .isEmpty();
            softly.assertThat(missing)
                    .as("configuration keys of the code without a row in any table of docs/*.md")
                    .isEmpty();
            softly.assertThat(duplicated)
                    .as("configuration keys with a row in more than one table row of docs/*.md (keep one, link"
                            + " to it from the others)")
                    .isEmpty();
            softly.assertThat(stale)
                    .as("keys in tables of docs/*.md that the code does not define (stale docs)")
                    .isEmpty();
        });
    }

    @Test
    void readmeIsAShortFrontDoorWithoutKeyTables() throws IOException {
        assertThat(Files.size(README)).as("README.md size in bytes").isLessThanOrEqualTo(README_MAX_BYTES);
        Map<String, List<String>> keyRows = documentedKeys(List.of(README), Set.of());
        assertThat(keyRows)
                .as("README.md table rows whose first cell is a key (the keys' tables are in docs/)")
                .isEmpty();
    }

    @Test
    void relativeLinksResolve() {
        List<Path> files = new ArrayList<>(markdownDocs());
        files.add(README);
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(lines.get(i));
                while (m.find()) {
                    String problem = check(file, m.group(1));
                    if (problem != null) {
                        broken.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + m.group(1) + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(broken).as("relative links in README.md and docs/*.md").isEmpty();
    }

    /** The keys the code defines, the literals that are not keys, and the unclassified ones. */
    private record CodeKeys(Set<String> keys, Set<String> notKeys, List<String> unclassified) {}

    private static CodeKeys codeKeys() {
        Set<String> keys = new TreeSet<>();
        Set<String> notKeys = new TreeSet<>();
        List<String> unclassified = new ArrayList<>();
        Map<Path, Map<String, String>> constantsByFile = new HashMap<>();
        Map<String, Map<String, String>> constantsByClass = new HashMap<>();
        List<Path> sources = walk(MAIN_JAVA, ".java");
        for (Path file : sources) {
            String text = read(file);
            String relative = MAIN_JAVA.relativize(file).toString().replace('\\', '/');
            Matcher literal = LITERAL.matcher(text);
            if (NOT_KEY_FILES.containsKey(relative)) {
                while (literal.find()) {
                    notKeys.add(literal.group(1));
                }
                continue;
            }
            Map<String, String> constants = new HashMap<>();
            Matcher constant = CONSTANT.matcher(text);
            while (constant.find()) {
                constants.put(constant.group(1), constant.group(2));
            }
            constantsByFile.put(file, constants);
            String simpleName = file.getFileName().toString().replace(".java", "");
            constantsByClass.put(simpleName, constants);
            keys.addAll(constants.values());
            while (literal.find()) {
                String value = literal.group(1);
                if (!constants.containsValue(value) && !NOT_KEY_LITERALS.containsKey(value)) {
                    unclassified.add(relative + ": \"" + value + "\"");
                }
            }
        }
        for (Path file : sources) {
            Map<String, String> own = constantsByFile.get(file);
            if (own == null) {
                continue;
            }
            Matcher m = PER_OPERATION.matcher(read(file));
            while (m.find()) {
                Map<String, String> scope = m.group(1) == null ? own : constantsByClass.get(m.group(1));
                String key = scope == null ? null : scope.get(m.group(2));
                if (key != null) {
                    keys.add(key + ".<op>");
                }
            }
        }
        for (Path file : walk(MAIN_RESOURCES, "")) {
            if (file.toString().endsWith(".xml") || file.toString().endsWith(".properties")) {
                Matcher m = PLACEHOLDER.matcher(read(file));
                while (m.find()) {
                    keys.add(m.group(1));
                }
            }
        }
        return new CodeKeys(keys, notKeys, unclassified);
    }

    /**
     * Every key named in the first cell of a table row, with where ({@code file:line}); placeholders
     * are written {@code <op>}.
     */
    private static Map<String, List<String>> documentedKeys(List<Path> files, Set<String> notKeys) {
        Map<String, List<String>> found = new TreeMap<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).trim();
                if (line.startsWith("```")) {
                    fenced = !fenced;
                }
                if (fenced || !line.startsWith("|") || line.matches("\\|[-:| ]+")) {
                    continue;
                }
                int end = line.indexOf('|', 1);
                String firstCell = end < 0 ? line.substring(1) : line.substring(1, end);
                if (!firstCell.contains("`")
                        || !ONLY_NAMES
                                .matcher(BACKTICKED.matcher(firstCell).replaceAll(","))
                                .matches()) {
                    continue;
                }
                Matcher m = BACKTICKED.matcher(firstCell);
                while (m.find()) {
                    Matcher key = KEY_SHAPED.matcher(m.group(1).trim());
                    if (!key.matches() || notKeys.contains(key.group())) {
                        continue;
                    }
                    String normalized =
                            key.group(1) == null ? key.group() : key.group().substring(0, key.start(1)) + ".<op>";
                    found.computeIfAbsent(normalized, k -> new ArrayList<>())
                            .add(ROOT.relativize(file) + ":" + (i + 1));
                }
            }
        }
        return found;
    }

    /** Null if {@code target}, linked from {@code file}, resolves; else what is wrong. */
    private static String check(Path file, String target) {
        if (target.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto: and the like
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        String relative = ROOT.relativize(resolved).toString().replace('\\', '/');
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor != null && relative.endsWith(".md") && !anchors(resolved).contains(anchor)) {
            return "no heading with this anchor in " + relative;
        }
        return null;
    }

    /** The anchors GitHub gives the headings of a Markdown file. */
    private static Set<String> anchors(Path file) {
        Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (String line : lines(file)) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
            }
            if (fenced || !line.matches("#{1,6} .*")) {
                continue;
            }
            String slug = line.replaceFirst("#+ ", "")
                    .trim()
                    .toLowerCase()
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            String unique = slug;
            for (int n = 1; !anchors.add(unique); n++) {
                unique = slug + "-" + n;
            }
        }
        return anchors;
    }

    private static List<Path> markdownDocs() {
        return walk(DOCS, ".md").stream()
                .filter(p -> p.getParent().equals(DOCS))
                .sorted()
                .collect(Collectors.toList());
    }

    private static List<Path> walk(Path dir, String suffix) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(suffix))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        return read(file).lines().collect(Collectors.toList());
    }
}
