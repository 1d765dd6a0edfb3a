package dev.idempotency.ops.openapi;

import dev.idempotency.internal.jaxrs.GuardedRoutes;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Finds the guarded resource methods of a web application for {@link IdempotencyOasFilter}, by the rules
 * {@code IdempotencyFeature} applies ({@link GuardedRoutes}), without JAX-RS or CDI: servers build the
 * OpenAPI document at deployment, before JAX-RS binds its filters.
 *
 * <ul>
 *   <li>On a servlet container, {@link GuardedOperationsInitializer} hands it every {@code @Path} class
 *       of the WAR when the web application starts (Payara, WildFly).
 *   <li>A server that builds the document before that (Open Liberty builds it while the application is
 *       starting, before its web module's initializers run) gets the routes from {@link #of(ClassLoader)}
 *       reading the application's own class files: {@code WEB-INF/classes} and the jars of {@code
 *       WEB-INF/lib}, each class whose bytes name {@code jakarta.ws.rs.Path} loaded without initialization.
 * </ul>
 *
 * Names no Servlet type, so that the OpenAPI filter loads on runtimes without Servlet.
 */
public final class GuardedOperations {

    private static final System.Logger LOG = System.getLogger(GuardedOperations.class.getName());
    /** The routes each web application's start collected, by its class loader. */
    private static final Map<ClassLoader, List<Route>> BY_LOADER = Collections.synchronizedMap(new WeakHashMap<>());
    /** The routes found in class files, by the exact loader they were read through. */
    private static final Map<ClassLoader, List<Route>> FOUND = Collections.synchronizedMap(new WeakHashMap<>());

    private static final byte[] PATH_DESCRIPTOR = "Ljakarta/ws/rs/Path;".getBytes(StandardCharsets.US_ASCII);
    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    /** One guarded resource method. */
    public record Route(
            String httpMethod, String template, String operation, String header, boolean required, int keyMaxLength) {}

    private GuardedOperations() {}

    /** The {@code @Path} classes of the web application of {@code loader}, as it starts. */
    static void collected(Set<Class<?>> classes, ClassLoader loader) {
        try {
            BY_LOADER.put(loader, routes(classes == null ? Set.of() : classes, loader));
        } catch (RuntimeException | LinkageError e) {
            // Invalid idempotency settings fail the deployment elsewhere, with their own message.
            LOG.log(Level.DEBUG, "guarded operations not collected for the OpenAPI document", e);
        }
    }

    private static List<Route> routes(Set<Class<?>> classes, ClassLoader loader) {
        if (classes.isEmpty()) {
            return List.of();
        }
        var config = ConfigProvider.getConfig(loader);
        List<Route> routes = new ArrayList<>();
        for (GuardedRoutes.Route r : GuardedRoutes.of(classes, key -> config.getOptionalValue(key, String.class))) {
            routes.add(
                    new Route(r.httpMethod(), r.template(), r.operation(), r.header(), r.required(), r.keyMaxLength()));
        }
        return List.copyOf(routes);
    }

    /**
     * The guarded routes of the web application of this class loader (or of one of its parents): those its
     * start collected, or, before it started, those found in its class files (then kept).
     */
    public static List<Route> of(ClassLoader loader) {
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            List<Route> r = BY_LOADER.get(l);
            if (r != null) {
                return r;
            }
        }
        if (loader == null) {
            return List.of();
        }
        List<Route> found = FOUND.get(loader);
        if (found != null) {
            return found;
        }
        try {
            Set<Class<?>> classes = pathClasses(loader);
            List<Route> routes = routes(classes, loader);
            LOG.log(
                    Level.DEBUG,
                    "{0} guarded operations found in the class files of {1} @Path classes of {2} (the server built"
                            + " the OpenAPI document before the web application started)",
                    routes.size(),
                    classes.size(),
                    loader);
            FOUND.put(loader, routes);
            return routes;
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, "guarded operations not found for the OpenAPI document", e);
            return List.of();
        }
    }

    /** The classes with {@code @Path} in the web application's {@code WEB-INF/classes} and {@code WEB-INF/lib}. */
    static Set<Class<?>> pathClasses(ClassLoader loader) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        for (URL root : Collections.list(loader.getResources(""))) {
            if (root.toString().contains("/WEB-INF/classes")) {
                names.addAll(classNames(root.toString()));
            }
        }
        for (URL manifest : Collections.list(loader.getResources(MANIFEST))) {
            String s = manifest.toString();
            if (s.contains("/WEB-INF/lib/")) {
                names.addAll(classNames(s.substring(0, s.length() - MANIFEST.length())));
            }
        }
        Set<Class<?>> classes = new LinkedHashSet<>();
        for (String name : names) {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in != null && contains(in.readAllBytes(), PATH_DESCRIPTOR)) {
                    Class<?> cls = Class.forName(name, false, loader);
                    cls.getMethods(); // a class whose signatures do not resolve here is left out, not the others
                    classes.add(cls);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                LOG.log(Level.DEBUG, "class {0} not inspected for guarded operations: {1}", name, e);
            }
        }
        return classes;
    }

    /** The names of the classes under a class-path root: a directory, or a folder of a jar. */
    private static List<String> classNames(String root) throws IOException {
        List<String> names = new ArrayList<>();
        if (root.startsWith("file:")) {
            java.nio.file.Path dir;
            try {
                dir = java.nio.file.Path.of(new URL(root).toURI());
            } catch (URISyntaxException | IllegalArgumentException e) {
                return names;
            }
            if (!Files.isDirectory(dir)) {
                return names;
            }
            try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                files.filter(p -> p.toString().endsWith(".class"))
                        .forEach(p ->
                                names.add(className(dir.relativize(p).toString().replace('\\', '/'))));
            }
            return names;
        }
        return archiveNames(root);
    }

    /**
     * The class names under a root that names a file on disk and paths inside it by {@code !/}, whatever
     * the protocol ({@code jar:file:/app.war!/WEB-INF/classes/}, Open Liberty's {@code wsjar:}), one archive
     * deep or two ({@code app.war!/WEB-INF/lib/x.jar!/}). Read from the file, not through the URL: a
     * {@code jar:} URL of a folder without its own entry in the archive does not open.
     */
    private static List<String> archiveNames(String s) throws IOException {
        List<String> names = new ArrayList<>();
        int file = s.indexOf("file:");
        String[] parts = file < 0 ? new String[0] : s.substring(file).split("!/", -1);
        java.nio.file.Path archive;
        try {
            archive = parts.length < 2 ? null : java.nio.file.Path.of(new URL(parts[0]).toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            archive = null;
        }
        if (archive == null || !Files.isRegularFile(archive) || parts.length > 3) {
            LOG.log(Level.DEBUG, "not a directory or an archive, not read for guarded operations: {0}", s);
            return names;
        }
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            if (parts.length == 2) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    addClass(names, e.nextElement().getName(), parts[1]);
                }
                return names;
            }
            ZipEntry inner = zip.getEntry(parts[1]);
            if (inner == null) {
                return names;
            }
            try (ZipInputStream in = new ZipInputStream(zip.getInputStream(inner))) {
                for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                    addClass(names, e.getName(), parts[2]);
                }
            }
        }
        return names;
    }

    private static void addClass(List<String> names, String entry, String prefix) {
        if (entry.startsWith(prefix) && entry.endsWith(".class") && !entry.startsWith("META-INF/")) {
            names.add(className(entry.substring(prefix.length())));
        }
    }

    private static String className(String relativePath) {
        return relativePath
                .substring(0, relativePath.length() - ".class".length())
                .replace('/', '.');
    }

    private static boolean contains(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i <= bytes.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
