package dev.idempotency.it;

import dev.idempotency.TestServices;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.time.Duration;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * What every in-container test shares, so that one {@code *IT} runs unchanged on every server of the
 * Maven profiles (Payara Micro, WildFly, Open Liberty, GlassFish): the library jar as users get it, a
 * WAR to add classes to, and the deployment's URL on 127.0.0.1.
 *
 * <p>Write a new deployment as {@code Deployments.war("x.war").addClasses(...)}, and reach it over
 * HTTP through {@link #loopback(URL)}: servers report their own host name in the URL Arquillian
 * injects, while every test request must go to 127.0.0.1.
 */
public final class Deployments {

    private Deployments() {}

    /**
     * The server the suite runs on: {@code payara}, {@code wildfly}, {@code liberty} or {@code
     * glassfish}, set by the Maven profile (system property {@code it.server}).
     *
     * @return the server's name
     */
    public static String server() {
        return System.getProperty("it.server", "payara");
    }

    /**
     * The library exactly as users get it: the jar Maven just built.
     *
     * @return the jar, to add with {@code addAsLibrary}
     */
    public static JavaArchive library() {
        File jar = new File(System.getProperty("project.jar", "target/idempotency-ee.jar"));
        return ShrinkWrap.createFromZipFile(JavaArchive.class, jar);
    }

    /**
     * A WAR with the library, an empty {@code beans.xml} and this class.
     *
     * @param name the archive's name, such as {@code "beans-it.war"}
     * @return the archive, to add the test's classes to
     */
    public static WebArchive war(String name) {
        return ShrinkWrap.create(WebArchive.class, name)
                .addAsLibrary(library())
                .addClasses(Deployments.class, TestServices.class, EffectRows.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    /**
     * Adds to a WAR a JTA data source on the tests' PostgreSQL database ({@link
     * TestServices#PG_DATABASE}), defined in its {@code web.xml} the portable way (Jakarta EE {@code
     * <data-source>}), with the PostgreSQL driver in {@code WEB-INF/lib}: no server configuration.
     *
     * @param war the archive, which must not have a web.xml of its own
     * @param jndiName the data source's name, such as {@code java:app/jdbc/orders}
     * @return the archive
     */
    public static WebArchive withPostgres(WebArchive war, String jndiName) {
        return withPostgres(war, java.util.Map.of(jndiName, 5432));
    }

    /**
     * Adds to a WAR JTA data sources on the tests' PostgreSQL database, as {@link #withPostgres(WebArchive,
     * String)} does, each reached on its own port of 127.0.0.1 (5432, or a test's TCP proxy in front of it).
     *
     * @param dataSources each data source's name and the port it connects to
     */
    public static WebArchive withPostgres(WebArchive war, java.util.Map<String, Integer> dataSources) {
        String database = TestServices.PG_DATABASE;
        TestServices.postgresUrl(); // creates the database when missing
        File driver = new File(org.postgresql.Driver.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
        StringBuilder sources = new StringBuilder();
        new java.util.TreeMap<>(dataSources)
                .forEach((jndiName, port) -> sources.append(String.join(
                        "\n",
                        "  <data-source>",
                        "    <name>" + jndiName + "</name>",
                        "    <class-name>org.postgresql.ds.PGSimpleDataSource</class-name>",
                        "    <server-name>127.0.0.1</server-name>",
                        "    <port-number>" + port + "</port-number>",
                        "    <database-name>" + database + "</database-name>",
                        "    <user>postgres</user>",
                        "    <password>postgres</password>",
                        "    <transactional>true</transactional>",
                        "    <max-pool-size>48</max-pool-size>",
                        "    <min-pool-size>2</min-pool-size>",
                        "  </data-source>",
                        "")));
        String webXml = String.join(
                "\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">",
                sources.toString() + "</web-app>",
                "");
        return war.addAsLibrary(driver).setWebXML(new StringAsset(webXml));
    }

    /**
     * {@code infinispan-core} and what it needs, to bundle in a WAR as the README says: without the
     * Jakarta Transactions API, which the server provides.
     */
    public static File[] infinispanLibraries() {
        File[] libs = org.jboss.shrinkwrap.resolver.api.maven.Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.infinispan:infinispan-core")
                .withTransitivity()
                .asFile();
        return java.util.Arrays.stream(libs)
                .filter(f -> !f.getName().startsWith("jakarta.transaction-api"))
                .toArray(File[]::new);
    }

    /** The tests' HTTP client: HTTP/1.1, as every server of the profiles speaks it, and a bounded connect. */
    public static HttpClient httpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /**
     * The deployment's base URI on 127.0.0.1, with the port and path of the URL Arquillian injected.
     *
     * @param deployed the injected {@code @ArquillianResource URL}
     * @return e.g. {@code http://127.0.0.1:18080/http-it/}
     */
    public static URI loopback(URL deployed) {
        String path = deployed.getPath().endsWith("/") ? deployed.getPath() : deployed.getPath() + "/";
        return URI.create("http://127.0.0.1:" + deployed.getPort() + path);
    }
}
