package dev.idempotency.internal.stores.infinispan;

import static dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings.CACHE;
import static dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings.CONFIG;
import static dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings.DEFAULT_CACHE;
import static dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings.MAX_BYTES;
import static dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings.MAX_ENTRIES;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.infinispan.Cache;
import org.infinispan.commons.util.Version;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfiguration;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.configuration.global.TransportConfiguration;
import org.infinispan.configuration.parsing.ConfigurationBuilderHolder;
import org.infinispan.configuration.parsing.ParserRegistry;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * Starts the Infinispan store: the cache manager that backs it (the shipped clustered configuration
 * and its placeholders), and the store its settings ({@link InfinispanStoreSettings}) make on it.
 *
 * <p>Which store:
 *
 * <ol>
 *   <li>A cache manager without a transport (the default: no {@link InfinispanStoreSettings#CONFIG}, or an XML file without
 *       {@code <transport>}) gets an {@link InfinispanLocalStore} on its local cache {@link
 *       InfinispanStoreSettings#CACHE}.
 *   <li>A clustered cache manager gets an {@link InfinispanRaftStore}: the records are a RAFT state
 *       machine on the manager's JGroups channel, which needs {@code org.jgroups:jgroups-raft} on the
 *       class path. Its RAFT id is the transport's {@code node-name} and its members the transport's
 *       {@code raft-members}; when the XML sets neither, they are derived from the placeholders the
 *       shipped XML uses: {@code bind-address:bind-port} and every {@code host[port]} of {@code
 *       initial-hosts}, written {@code host:port}.
 * </ol>
 *
 * <p>A clustered <em>cache</em> is never used for records: its conditional writes are not atomic while
 * members join, leave or die (docs/internals.md, "The Infinispan cluster").
 */
public final class InfinispanStores {

    /** The store's name, the value of {@code idempotency.store} that selects it. */
    public static final String NAME = "infinispan";

    /** Placeholder of the shipped XML: the address every socket binds to; with the port, the RAFT id. */
    public static final String BIND_ADDRESS = "idempotency.infinispan.bind-address";

    /** Placeholder of the shipped XML: the JGroups TCP port; with the address, the RAFT id. */
    public static final String BIND_PORT = "idempotency.infinispan.bind-port";

    /**
     * Config key: this node's RAFT id, one of the members named by {@link #INITIAL_HOSTS} ({@code
     * host:port}). Default: {@code bind-address:bind-port}. Set it where a node's address changes across
     * restarts (a Kubernetes pod, say): its stable host name and port, listed the same way in {@code
     * initial-hosts}.
     */
    public static final String NODE_NAME = "idempotency.infinispan.node-name";

    /** Placeholder of the shipped XML: every member's {@code address[port]}; the RAFT members. */
    public static final String INITIAL_HOSTS = "idempotency.infinispan.initial-hosts";

    /** Defaults of the shipped XML's placeholders, the same as in the XML. */
    static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";

    static final String DEFAULT_BIND_PORT = "7800";
    static final String DEFAULT_INITIAL_HOSTS = "127.0.0.1[7800],127.0.0.1[7801],127.0.0.1[7802]";

    /**
     * The clustered configuration shipped in this jar: JGroups TCP with static discovery (TCPPING),
     * every socket bound to one address. Set {@code idempotency.infinispan.config} to this value to
     * use it.
     */
    public static final String CLUSTER_CONFIG = "idempotency-infinispan-cluster.xml";

    /** A class that exists exactly when jgroups-raft is on the class path. */
    private static final String RAFT_PROBE = "org.jgroups.protocols.raft.RAFT";

    /** The protocols of the records' RAFT stack, whose class initialisers register their message types. */
    private static final List<String> RAFT_PROTOCOLS =
            List.of(RAFT_PROBE, "org.jgroups.protocols.raft.ELECTION", "org.jgroups.protocols.raft.REDIRECT");

    private static final Pattern HOST = Pattern.compile("\\s*([^\\[\\],\\s]+)\\s*\\[\\s*(\\d+)\\s*]\\s*");

    private static final System.Logger LOG = System.getLogger(InfinispanStores.class.getName());

    private InfinispanStores() {}

    /**
     * Starts a cache manager and a store on it; closing the store (it is {@link AutoCloseable}) stops
     * the manager.
     *
     * @param settings the configuration ({@link InfinispanStoreSettings#CONFIG}, {@link InfinispanStoreSettings#CACHE}, {@link InfinispanStoreSettings#CLAIM_GRACE} and the
     *     cluster's keys)
     * @param placeholders values for {@code ${...}} placeholders of the XML configuration
     * @param loader the class loader that finds the XML resource and the application's classes
     */
    public static IdempotencyStore start(ConfigLookup settings, Properties placeholders, ClassLoader loader) {
        return start(settings, placeholders, loader, Clock.systemUTC());
    }

    /** {@link #start(ConfigLookup, Properties, ClassLoader)} on another clock (tests). */
    static IdempotencyStore start(ConfigLookup settings, Properties placeholders, ClassLoader loader, Clock clock) {
        requireOneRelease(DefaultCacheManager.class.getPackage().getImplementationVersion(), Version.getVersion());
        InfinispanStoreSettings read = InfinispanStoreSettings.from(settings);
        EmbeddedCacheManager manager = startManager(read.config(), placeholders, loader);
        AtomicBoolean stopped = new AtomicBoolean();
        Runnable stop = () -> {
            if (stopped.compareAndSet(false, true)) {
                manager.stop();
            }
        };
        try {
            return on(manager, read, stop, clock);
        } catch (RuntimeException e) {
            stop.run();
            throw e;
        }
    }

    /**
     * A store on a cache manager that the application manages (for example one it produces through
     * CDI); the store never stops it. A manager without a transport must define the cache named by
     * {@link InfinispanStoreSettings#CACHE}; a clustered one must set its transport's {@code node-name} and {@code
     * raft-members}.
     */
    public static IdempotencyStore onManager(EmbeddedCacheManager manager, ConfigLookup settings) {
        requireOneRelease(DefaultCacheManager.class.getPackage().getImplementationVersion(), Version.getVersion());
        return on(manager, InfinispanStoreSettings.from(settings).withoutConfig(), null, Clock.systemUTC());
    }

    private static IdempotencyStore on(
            EmbeddedCacheManager manager, InfinispanStoreSettings settings, Runnable stop, Clock clock) {
        String name = settings.cache();
        Duration grace = settings.claimGrace();
        String config = settings.config();
        String origin = config == null
                ? "The Infinispan cache manager supplied by the application"
                : "The Infinispan configuration '" + config + "' (" + CONFIG + ")";
        TransportConfiguration transport =
                manager.getCacheManagerConfiguration().transport();
        if (transport.transport() == null) {
            if (settings.maxEntries() != null || settings.maxBytes() != null) {
                String key = settings.maxEntries() != null ? MAX_ENTRIES : MAX_BYTES;
                throw new IdempotencyConfigurationException("'" + key + "' bounds the records of an Infinispan"
                        + " cluster, but this store runs on one node's local cache ('" + CONFIG + "' has no"
                        + " <transport>). Remove the key, or run a cluster ('" + CONFIG + "=" + CLUSTER_CONFIG
                        + "').");
            }
            if (manager.getCacheConfiguration(name) == null) {
                throw new IdempotencyConfigurationException(origin + " has no cache named '" + name
                        + "'. Define that cache in the configuration, or set '" + CACHE
                        + "' to the name of a cache it defines.");
            }
            Cache<String, IdempotencyRecord> cache = manager.getCache(name);
            if (cache.getCacheConfiguration().clustering().cacheMode().isClustered()) {
                throw new IdempotencyConfigurationException(
                        origin + " defines cache '" + name + "' as clustered," + " but has no transport.");
            }
            return new InfinispanLocalStore(cache, clock, grace, stop);
        }
        if (transport.nodeName() == null || transport.raftMembers().isEmpty()) {
            throw new IdempotencyConfigurationException(origin + " is clustered, but its <transport> sets no"
                    + " node-name and raft-members. In a cluster the records are a RAFT state machine, whose"
                    + " members are those names: set node-name to this node's unique name and raft-members to"
                    + " every node's name (the same list on every node), or use '" + CLUSTER_CONFIG
                    + "', which derives them from " + BIND_ADDRESS + ", " + BIND_PORT + " and " + INITIAL_HOSTS + ".");
        }
        requireRaft(InfinispanStores.class.getClassLoader(), origin);
        InfinispanRaftStore.Options options = new InfinispanRaftStore.Options(
                name,
                transport.nodeName(),
                List.copyOf(transport.raftMembers()),
                settings.stateDir(),
                settings.fsync(),
                settings.writeTimeout(),
                grace,
                settings.transactionRegistry(),
                settings.maxEntriesOrDefault(),
                settings.maxBytesOrDefault());
        return new InfinispanRaftStore(manager, options, clock, stop);
    }

    /**
     * Fails when infinispan-core and infinispan-commons are of different releases (major.minor): a build
     * whose dependency management pins one of them (Quarkus's BOM manages infinispan-commons for its Hot
     * Rod client) gets a mix that fails on the shipped XML's schema, or worse, starts. Either version
     * unknown (a repackaged jar without its manifest): nothing to compare.
     *
     * @param core infinispan-core's version, or null
     * @param commons infinispan-commons's version, or null
     */
    static void requireOneRelease(String core, String commons) {
        if (core == null || commons == null || release(core).equals(release(commons))) {
            return;
        }
        throw new IdempotencyConfigurationException("The application has infinispan-core " + core
                + " but infinispan-commons " + commons + ": Infinispan's jars must be of one release. Align them,"
                + " for example by importing org.infinispan:infinispan-bom:" + core + " in <dependencyManagement>"
                + " before any other BOM that manages Infinispan (on Quarkus, before io.quarkus:quarkus-bom,"
                + " which manages infinispan-commons).");
    }

    /** "16.1" of "16.1.4" or "16.1.4.Final"; the whole text if it has no second dot. */
    private static String release(String version) {
        int first = version.indexOf('.');
        int second = first < 0 ? -1 : version.indexOf('.', first + 1);
        return second < 0 ? version.trim() : version.substring(0, second);
    }

    /**
     * Starts a cache manager: from the XML file {@code config} when given, otherwise a non-clustered
     * manager with a local cache named {@value InfinispanStoreSettings#DEFAULT_CACHE}. A clustered configuration without
     * {@code node-name} and {@code raft-members} gets them derived from the placeholders (see the class
     * Javadoc), and needs jgroups-raft.
     *
     * @param config class-path resource or file path of an Infinispan XML configuration, or {@code null}
     * @param placeholders values for {@code ${...}} placeholders in the XML
     * @param loader the class loader for the resource and for Infinispan's own class lookups
     */
    public static EmbeddedCacheManager startManager(String config, Properties placeholders, ClassLoader loader) {
        if (config == null) {
            GlobalConfigurationBuilder global = new GlobalConfigurationBuilder().nonClusteredDefault();
            global.classLoader(loader);
            // The library publishes its own metrics (docs/operations.md); Infinispan's would look for
            // Micrometer and, where the application has none, log a WARN (ISPN000714) on every start.
            global.metrics().gauges(false).histograms(false);
            DefaultCacheManager manager = new DefaultCacheManager(global.build());
            // A local cache: its conditional writes are atomic under the entry's lock, no
            // transactions needed.
            manager.defineConfiguration(DEFAULT_CACHE, new ConfigurationBuilder().build());
            return manager;
        }
        URL url = locate(config, loader);
        // Parsed for every attempt to start: a holder carries the transport instance it was built with,
        // which a failed start leaves stopped.
        Supplier<ConfigurationBuilderHolder> holders = () -> configuration(config, url, placeholders, loader);
        ConfigurationBuilderHolder holder = holders.get();
        if (holder.getGlobalConfigurationBuilder().build().transport().transport() == null) {
            return new DefaultCacheManager(holder, true);
        }
        requireRaft(loader, "The Infinispan configuration '" + config + "' (" + CONFIG + ")");
        registerRaftTypes(loader);
        return startClustered(holder, holders);
    }

    /**
     * Parses the XML configuration, and gives a clustered one without {@code node-name} and {@code
     * raft-members} those derived from the placeholders (see the class Javadoc).
     */
    private static ConfigurationBuilderHolder configuration(
            String config, URL url, Properties placeholders, ClassLoader loader) {
        ConfigurationBuilderHolder holder;
        GlobalConfiguration parsed;
        try {
            holder = new ParserRegistry(loader, false, placeholders).parse(url);
            parsed = holder.getGlobalConfigurationBuilder().build();
        } catch (IOException | RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + CONFIG + "' names '" + config + "', which is not a valid Infinispan XML"
                            + " configuration: " + e.getMessage(),
                    e);
        }
        GlobalConfigurationBuilder global = holder.getGlobalConfigurationBuilder();
        global.classLoader(loader);
        TransportConfiguration transport = parsed.transport();
        if (transport.transport() != null
                && transport.nodeName() == null
                && transport.raftMembers().isEmpty()) {
            String address =
                    placeholders.getProperty(BIND_ADDRESS, DEFAULT_BIND_ADDRESS).trim();
            String port = placeholders.getProperty(BIND_PORT, DEFAULT_BIND_PORT).trim();
            String self =
                    placeholders.getProperty(NODE_NAME, address + ":" + port).trim();
            List<String> members = members(placeholders.getProperty(INITIAL_HOSTS, DEFAULT_INITIAL_HOSTS));
            if (!members.contains(self)) {
                throw new IdempotencyConfigurationException("This node's RAFT id is " + self + " (" + NODE_NAME
                        + ", by default " + BIND_ADDRESS + ":" + BIND_PORT + "), which is not among the members "
                        + members + " that " + INITIAL_HOSTS + " names. Each node's records are decided by a RAFT"
                        + " majority of those members: list every node in " + INITIAL_HOSTS + " as it names itself"
                        + " (its bind address, or the host name set in " + NODE_NAME + "), the same list on every"
                        + " node.");
            }
            global.transport().nodeName(self).raftMembers(members);
        }
        return holder;
    }

    /**
     * How long a node keeps trying to join while the cluster still has its previous process in the view
     * (a process that was killed and restarted before the others' failure detection excluded it).
     */
    static final Duration REJOIN_PATIENCE = Duration.ofSeconds(60);

    /**
     * Starts the manager, and starts it again while its join is refused because the cluster's view still
     * holds this node's previous process under the same RAFT id (jgroups-raft's NO_DUPES): the others
     * exclude a dead process within seconds, and a restart must not fail because it was faster.
     */
    private static DefaultCacheManager startClustered(
            ConfigurationBuilderHolder first, Supplier<ConfigurationBuilderHolder> again) {
        long deadline = System.nanoTime() + REJOIN_PATIENCE.toNanos();
        ConfigurationBuilderHolder holder = first;
        for (boolean logged = false; ; holder = again.get()) {
            try {
                return new DefaultCacheManager(holder, true);
            } catch (RuntimeException e) {
                if (!isDuplicateMember(e) || System.nanoTime() >= deadline) {
                    throw e;
                }
                LOG.log(
                        logged ? System.Logger.Level.DEBUG : System.Logger.Level.INFO,
                        "The Infinispan cluster still lists this node''s previous process; joining again once it"
                                + " has been excluded (at most {0} s)",
                        REJOIN_PATIENCE.toSeconds());
                logged = true;
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static boolean isDuplicateMember(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SecurityException && String.valueOf(t.getMessage()).contains("duplicate members")) {
                return true;
            }
        }
        return false;
    }

    /** The RAFT members named by an {@code initial-hosts} list: {@code host[port]} becomes {@code host:port}. */
    static List<String> members(String initialHosts) {
        List<String> members = new ArrayList<>();
        for (String part : initialHosts.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            Matcher m = HOST.matcher(part);
            if (!m.matches()) {
                throw new IdempotencyConfigurationException("'" + INITIAL_HOSTS + "' is '" + initialHosts
                        + "': '" + part.trim() + "' is not of the form address[port]; write it like"
                        + " 10.0.0.1[7800],10.0.0.2[7800],10.0.0.3[7800].");
            }
            String member = m.group(1) + ":" + Integer.parseInt(m.group(2));
            if (!members.contains(member)) {
                members.add(member);
            }
        }
        if (members.isEmpty()) {
            throw new IdempotencyConfigurationException(
                    "'" + INITIAL_HOSTS + "' is empty; list every node of the cluster as address[port].");
        }
        return members;
    }

    /**
     * Loads jgroups-raft's protocols, whose class initialisers register its message and header types
     * with JGroups: a node must know them before its channel connects, or the first RAFT message that
     * reaches it (before its own RAFT stack started) is reported as an unreadable packet.
     */
    public static void registerRaftTypes(ClassLoader loader) {
        for (String protocol : RAFT_PROTOCOLS) {
            try {
                Class.forName(protocol, true, loader);
            } catch (ClassNotFoundException e) {
                return; // no jgroups-raft: requireRaft says what to do
            }
        }
    }

    private static void requireRaft(ClassLoader loader, String origin) {
        try {
            Class.forName(RAFT_PROBE, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IdempotencyConfigurationException(origin + " is clustered, but org.jgroups:jgroups-raft is"
                    + " not on the class path. A cluster decides every claim through RAFT: add"
                    + " org.jgroups:jgroups-raft 1.1.4.Final to the application (excluding its org.jgroups:jgroups,"
                    + " which Infinispan brings), or remove '" + CONFIG + "' for a single node's local cache.");
        }
    }

    private static URL locate(String config, ClassLoader loader) {
        URL url = loader.getResource(config.startsWith("/") ? config.substring(1) : config);
        if (url == null && InfinispanStores.class.getClassLoader() != loader) {
            url = InfinispanStores.class.getClassLoader().getResource(config);
        }
        if (url != null) {
            return url;
        }
        Path file = Path.of(config);
        if (Files.isReadable(file)) {
            try {
                return file.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IdempotencyConfigurationException("Config key '" + CONFIG + "': bad path " + config, e);
            }
        }
        throw new IdempotencyConfigurationException("Config key '" + CONFIG + "' names '" + config
                + "', which is neither a class-path resource nor a readable file. Use '" + CLUSTER_CONFIG
                + "' for the shipped clustered configuration, or the path of your own Infinispan XML file.");
    }
}
