package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fixed ports of the tests and benchmarks ({@link TestServices#port}) stay clear of each other's
 * JGroups failure detection, which listens on a member's port plus 50 (the shipped stack's {@code
 * fd-port-offset}). Two tests whose ports differ by 50 fail in turn, depending on their order and on
 * the closed connections the first leaves behind.
 */
class TestPortsTest {

    private static final Pattern PORT = Pattern.compile("TestServices\\.port\\((\\d+)\\)");
    private static final int FD_OFFSET = 50;

    @Test
    void noFixedPortIsAnotherFixedPortsFailureDetectionPort() {
        Map<Integer, List<String>> users = ports(List.of(Path.of("src/test/java"), Path.of("bench/jmh/java")));
        assertThat(users).as("fixed ports found").hasSizeGreaterThan(30);
        List<String> clashes = new ArrayList<>();
        users.forEach((port, files) -> {
            List<String> fd = users.get(port + FD_OFFSET);
            if (fd != null) {
                clashes.add(port + " " + files + " listens for failure detection on " + (port + FD_OFFSET)
                        + ", the port of " + fd);
            }
        });
        assertThat(clashes)
                .as("move one of each pair to a port that is neither another port plus or minus 50")
                .isEmpty();
    }

    /** Every literal {@code TestServices.port(n)} under the roots, with the files that use it. */
    static Map<Integer, List<String>> ports(List<Path> roots) {
        Map<Integer, List<String>> users = new TreeMap<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = PORT.matcher(Files.readString(f));
                    while (m.find()) {
                        List<String> names =
                                users.computeIfAbsent(Integer.parseInt(m.group(1)), p -> new ArrayList<>());
                        String name = f.getFileName().toString();
                        if (!names.contains(name)) {
                            names.add(name);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return users;
    }
}
