package dev.idempotency.ops.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.ops.it.app.PaymentsResource;
import dev.idempotency.ops.it.app.PlainResource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routes of a web application that the servlet container did not hand over (Open Liberty builds the
 * OpenAPI document before the web module starts), found in its class files: {@code WEB-INF/classes} as a
 * directory, inside the WAR through a {@code jar:} URL, inside the WAR and inside a jar of {@code
 * WEB-INF/lib} through a protocol of the server's own (as Liberty's {@code wsjar:}).
 */
class GuardedOperationsTest {

    private static final Set<String> EXPECTED =
            Set.of("POST /payments " + PaymentsResource.PAY, "POST /payments/refund " + PaymentsResource.REFUND);

    @TempDir
    Path dir;

    @Test
    void findsTheRoutesInAnExpandedWar() throws Exception {
        Path classes = dir.resolve("app/WEB-INF/classes");
        for (Class<?> c : List.of(PaymentsResource.class, PlainResource.class)) {
            Path target = classes.resolve(resource(c));
            Files.createDirectories(target.getParent());
            Files.write(target, bytes(c));
        }
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            assertEquals(EXPECTED, routes(loader));
        }
    }

    @Test
    void findsTheRoutesInsideAWarThroughJarUrls() throws Exception {
        Path war = war(dir.resolve("app.war"), "WEB-INF/classes/");
        URL root = new URL("jar:" + war.toUri() + "!/WEB-INF/classes/");
        assertEquals(EXPECTED, routes(new Roots(List.of(root), List.of())));
    }

    @Test
    void findsTheRoutesThroughAServersOwnProtocolOneAndTwoArchivesDeep() throws Exception {
        Path war = war(dir.resolve("app.war"), "WEB-INF/classes/");
        assertEquals(
                EXPECTED, routes(new Roots(List.of(own("wsjar:" + war.toUri() + "!/WEB-INF/classes/")), List.of())));

        Path lib = war(dir.resolve("lib.jar"), "");
        Path outer = dir.resolve("outer.war");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(outer))) {
            out.putNextEntry(new ZipEntry("WEB-INF/lib/lib.jar"));
            out.write(Files.readAllBytes(lib));
            out.closeEntry();
        }
        URL manifest = own("wsjar:" + outer.toUri() + "!/WEB-INF/lib/lib.jar!/META-INF/MANIFEST.MF");
        assertEquals(EXPECTED, routes(new Roots(List.of(), List.of(manifest))));
    }

    @Test
    void findsNothingWhereThereIsNoWebApplication() {
        // The test class path has no WEB-INF: nothing is read, and no route is made up.
        assertEquals(Set.of(), routes(new Roots(List.of(), List.of())));
    }

    private static Set<String> routes(ClassLoader loader) {
        Set<String> seen = new TreeSet<>();
        for (GuardedOperations.Route r : GuardedOperations.of(loader)) {
            seen.add(r.httpMethod() + " " + r.template() + " " + r.operation());
        }
        return seen;
    }

    /** An archive with the two resource classes under {@code prefix}. */
    private static Path war(Path file, String prefix) throws IOException {
        try (OutputStream os = Files.newOutputStream(file);
                ZipOutputStream out = new ZipOutputStream(os)) {
            for (Class<?> c : List.of(PaymentsResource.class, PlainResource.class)) {
                out.putNextEntry(new ZipEntry(prefix + resource(c)));
                out.write(bytes(c));
                out.closeEntry();
            }
        }
        return file;
    }

    private static String resource(Class<?> c) {
        return c.getName().replace('.', '/') + ".class";
    }

    private static byte[] bytes(Class<?> c) throws IOException {
        try (var in = c.getClassLoader().getResourceAsStream(resource(c))) {
            return in.readAllBytes();
        }
    }

    /** A URL of a protocol the JDK does not know, which cannot be opened: only its text is read. */
    private static URL own(String spec) throws IOException {
        return new URL(null, spec, new URLStreamHandler() {
            @Override
            protected URLConnection openConnection(URL u) throws IOException {
                return new URLConnection(u) {
                    @Override
                    public void connect() throws IOException {
                        throw new IOException("not opened in this test");
                    }
                };
            }
        });
    }

    /** A loader whose class-path roots and manifests are given; classes and their bytes come from the test's loader. */
    private static final class Roots extends ClassLoader {
        private final List<URL> roots;
        private final List<URL> manifests;

        Roots(List<URL> roots, List<URL> manifests) {
            super(GuardedOperationsTest.class.getClassLoader());
            this.roots = roots;
            this.manifests = manifests;
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            if (name.isEmpty()) {
                return Collections.enumeration(roots);
            }
            if (name.equals("META-INF/MANIFEST.MF")) {
                return Collections.enumeration(manifests);
            }
            return super.getResources(name);
        }
    }
}
