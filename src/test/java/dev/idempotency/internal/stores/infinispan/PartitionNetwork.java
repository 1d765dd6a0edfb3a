package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.TestServices;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The network of {@link InfinispanPartitionIT}, made with iproute2 only (no iptables): one Linux
 * network namespace per node, each with two links into the root namespace.
 *
 * <ul>
 *   <li>a "cluster" veth ({@code clu} inside, {@code <prefix>c<n>} outside) whose outer end is a port
 *       of the cluster bridge; JGroups binds to its address {@code 10.213.<c>.<n+1>}. The cluster
 *       bridge has no address, so nothing outside the namespaces reaches the cluster subnet;
 *   <li>a "client" veth ({@code cli} inside, {@code <prefix>h<n>} outside) on the client bridge,
 *       which has address {@code 10.213.<c+1>.254} in the root namespace: the test reaches each node's
 *       HTTP port over it, and the nodes reach the test's PostgreSQL forwarder.
 * </ul>
 *
 * <p>The namespaces have no default route: a node reaches the other nodes' cluster addresses and the
 * client subnet, nothing else. {@link #cut} sets the outer end of a node's cluster veth down: the
 * bridge stops forwarding to it and the node's own end loses its carrier, so every packet between
 * that node and the others is silently dropped (no reset, no ICMP), like a pulled cable; its client
 * link stays up. {@link #heal} sets it up again.
 *
 * <p>Names and subnets derive from a slot, {@code IDEMPOTENCY_TEST_PORT_OFFSET mod 120}, so that two
 * runs with different offsets keep apart; a subnet already in use on this machine fails the setup
 * with a message, and so does any failure to create a namespace: the test never skips.
 */
final class PartitionNetwork implements AutoCloseable {

    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(30);

    private final int nodes;
    private final int slot;
    private final String linkPrefix;
    private final String namespacePrefix;
    private final String clusterNet;
    private final String clientNet;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    private PartitionNetwork(int nodes, int slot) {
        this.nodes = nodes;
        this.slot = slot;
        this.linkPrefix = "ipt" + slot + "-";
        this.namespacePrefix = "ispnpt" + slot + "-";
        this.clusterNet = "10.213." + (2 * slot);
        this.clientNet = "10.213." + (2 * slot + 1);
    }

    /**
     * Removes what an earlier run of the same slot left behind, then makes the namespaces, links and
     * bridges.
     *
     * @throws AssertionError when any of it cannot be made (no root, no iproute2, no namespaces), with
     *     the command and its output
     */
    static PartitionNetwork create(int nodes) {
        PartitionNetwork net = new PartitionNetwork(nodes, Math.floorMod(TestServices.PORT_OFFSET, 120));
        net.removeStale();
        net.checkSubnetsFree();
        long pid = ProcessHandle.current().pid();
        try {
            for (int n = 0; n < nodes; n++) {
                String ns = net.namespacePrefix + pid + "-n" + n;
                Result r = run(List.of("ip", "netns", "add", ns));
                if (r.code != 0) {
                    throw new AssertionError("Network namespaces cannot be created on this machine, so this test"
                            + " cannot make its partition: 'ip netns add " + ns + "' exited with " + r.code + ": "
                            + r.output.strip() + ". The test needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN) and iproute2.");
                }
                net.namespaces.add(ns);
            }
            net.must("ip", "link", "add", net.clusterBridge(), "type", "bridge");
            net.must("ip", "link", "add", net.clientBridge(), "type", "bridge");
            // No IPv6 link-local addresses on the root namespace's side: a server started meanwhile
            // (another test run on this machine) would otherwise report one as its URL.
            net.must("ip", "link", "set", "dev", net.clusterBridge(), "addrgenmode", "none");
            net.must("ip", "link", "set", "dev", net.clientBridge(), "addrgenmode", "none");
            net.must("ip", "addr", "add", net.hostAddress() + "/24", "dev", net.clientBridge());
            net.must("ip", "link", "set", net.clusterBridge(), "up");
            net.must("ip", "link", "set", net.clientBridge(), "up");
            for (int n = 0; n < nodes; n++) {
                String ns = net.namespaces.get(n);
                net.must("ip", "-n", ns, "link", "set", "lo", "up");
                net.must("ip", "link", "add", net.clusterLink(n), "type", "veth", "peer", "name", "clu", "netns", ns);
                net.must("ip", "link", "add", net.clientLink(n), "type", "veth", "peer", "name", "cli", "netns", ns);
                net.must("ip", "link", "set", "dev", net.clusterLink(n), "addrgenmode", "none");
                net.must("ip", "link", "set", "dev", net.clientLink(n), "addrgenmode", "none");
                net.must("ip", "link", "set", net.clusterLink(n), "master", net.clusterBridge(), "up");
                net.must("ip", "link", "set", net.clientLink(n), "master", net.clientBridge(), "up");
                net.must("ip", "-n", ns, "addr", "add", net.clusterAddress(n) + "/24", "dev", "clu");
                net.must("ip", "-n", ns, "addr", "add", net.clientAddress(n) + "/24", "dev", "cli");
                net.must("ip", "-n", ns, "link", "set", "clu", "up");
                net.must("ip", "-n", ns, "link", "set", "cli", "up");
            }
        } catch (IOException e) {
            net.close();
            throw new AssertionError(
                    "Network namespaces cannot be created on this machine: running iproute2 ('ip') failed: " + e
                            + ". The test needs root and iproute2.",
                    e);
        } catch (RuntimeException | AssertionError e) {
            net.close();
            throw e;
        }
        return net;
    }

    /** JGroups' address of node {@code n}. */
    String clusterAddress(int n) {
        return clusterNet + "." + (n + 1);
    }

    /** The address on which the test reaches node {@code n}'s HTTP port. */
    String clientAddress(int n) {
        return clientNet + "." + (n + 1);
    }

    /** The root namespace's address on the client bridge (where the PostgreSQL forwarder listens). */
    String hostAddress() {
        return clientNet + ".254";
    }

    /** The namespace of node {@code n}. */
    String namespace(int n) {
        return namespaces.get(n);
    }

    /** {@code command}, run inside node {@code n}'s namespace. */
    List<String> inNamespace(int n, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(n)));
        all.addAll(command);
        return all;
    }

    /** Cuts node {@code n}'s cluster link: its JGroups traffic is dropped both ways, silently. */
    void cut(int n) throws IOException {
        must("ip", "link", "set", clusterLink(n), "down");
    }

    /** Restores node {@code n}'s cluster link. */
    void heal(int n) throws IOException {
        must("ip", "link", "set", clusterLink(n), "up");
    }

    /** The state of every link, for failure messages and the run's summary. */
    String describe() {
        StringBuilder s = new StringBuilder();
        try {
            s.append(run(List.of("ip", "-br", "link")).output);
            for (String ns : namespaces) {
                s.append("[").append(ns).append("]\n");
                s.append(run(List.of("ip", "-n", ns, "-br", "addr")).output);
            }
        } catch (IOException e) {
            s.append(e);
        }
        return s.toString();
    }

    /** The commands run so far, with their exit codes. */
    List<String> commandLog() {
        return List.copyOf(log);
    }

    /**
     * Deletes the links, bridges and namespaces (best effort, every step tried). The nodes must have
     * been stopped first: a namespace with a live process in it lives on.
     */
    @Override
    public void close() {
        for (int n = 0; n < nodes; n++) {
            quietly("ip", "link", "del", clusterLink(n));
            quietly("ip", "link", "del", clientLink(n));
        }
        quietly("ip", "link", "del", clusterBridge());
        quietly("ip", "link", "del", clientBridge());
        for (String ns : namespaces) {
            quietly("ip", "netns", "del", ns);
        }
    }

    // ---------------------------------------------------------------- names

    private String clusterBridge() {
        return linkPrefix + "bc";
    }

    private String clientBridge() {
        return linkPrefix + "bh";
    }

    private String clusterLink(int n) {
        return linkPrefix + "c" + n;
    }

    private String clientLink(int n) {
        return linkPrefix + "h" + n;
    }

    // ---------------------------------------------------------------- leftovers and collisions

    /**
     * Deletes the namespaces and root-namespace links of this slot that an earlier run left (a run
     * whose JVM was killed before its clean-up). A leftover namespace that still holds processes
     * belongs to a run that is still going (or to servers a killed run left): the setup then fails and
     * says which processes, instead of deleting what another run uses.
     */
    private void removeStale() {
        try {
            Result list = run(List.of("ip", "netns", "list"));
            if (list.code != 0) {
                throw new AssertionError("Network namespaces cannot be listed on this machine: 'ip netns list' exited"
                        + " with " + list.code + ": " + list.output.strip() + ". The test needs root and iproute2.");
            }
            List<String> stale = new ArrayList<>();
            for (String line : list.output.split("\n")) {
                String name = line.strip().split("\\s+")[0];
                if (name.startsWith(namespacePrefix)) {
                    stale.add(name);
                }
            }
            for (String ns : stale) {
                String pids = run(List.of("ip", "netns", "pids", ns)).output.strip();
                if (!pids.isEmpty()) {
                    throw new AssertionError("Network namespace " + ns + " of an earlier or concurrent run (same"
                            + " IDEMPOTENCY_TEST_PORT_OFFSET slot " + slot + ") still holds processes "
                            + pids.replace('\n', ' ') + ". If no other run is going, stop them (kill <pid>) and"
                            + " delete it (ip netns del " + ns + "); or run with another"
                            + " IDEMPOTENCY_TEST_PORT_OFFSET.");
                }
            }
            Result links = run(List.of("ip", "-o", "link", "show"));
            for (String line : links.output.split("\n")) {
                String[] parts = line.split(":\\s+", 3);
                if (parts.length >= 2) {
                    String name = parts[1].split("@")[0].strip();
                    if (name.startsWith(linkPrefix)) {
                        quietly("ip", "link", "del", name);
                    }
                }
            }
            for (String ns : stale) {
                quietly("ip", "netns", "del", ns);
            }
        } catch (IOException e) {
            throw new AssertionError(
                    "Network namespaces cannot be created on this machine: running iproute2 ('ip') failed: " + e
                            + ". The test needs root and iproute2.",
                    e);
        }
    }

    /** Fails when an address or route of this slot's subnets already exists on the machine. */
    private void checkSubnetsFree() {
        try {
            String in = run(List.of("ip", "-o", "-4", "addr", "show")).output
                    + run(List.of("ip", "-4", "route", "show", "table", "all")).output;
            for (String net : List.of(clusterNet, clientNet)) {
                for (String line : in.split("\n")) {
                    if (line.contains(" " + net + ".") || line.startsWith(net + ".")) {
                        throw new AssertionError("Subnet " + net + ".0/24, which this test (slot " + slot
                                + " = IDEMPOTENCY_TEST_PORT_OFFSET mod 120) uses for its network namespaces, is"
                                + " already in use on this machine: '" + line.strip()
                                + "'. Run with another IDEMPOTENCY_TEST_PORT_OFFSET.");
                    }
                }
            }
        } catch (IOException e) {
            throw new AssertionError("Running iproute2 ('ip') failed: " + e + ". The test needs root and iproute2.", e);
        }
    }

    // ---------------------------------------------------------------- commands

    private record Result(int code, String output) {}

    private void must(String... command) throws IOException {
        Result r = run(List.of(command));
        log.add(String.join(" ", command) + " -> " + r.code);
        if (r.code != 0) {
            throw new AssertionError("Setting up the test's network failed: '" + String.join(" ", command)
                    + "' exited with " + r.code + ": " + r.output.strip()
                    + ". The test needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN), iproute2, veth and bridge support.");
        }
    }

    private void quietly(String... command) {
        try {
            Result r = run(List.of(command));
            log.add(String.join(" ", command) + " -> " + r.code);
        } catch (IOException | RuntimeException e) {
            log.add(String.join(" ", command) + " -> " + e);
        }
    }

    /** Runs a command with a time limit; its output and error output, merged. */
    private static Result run(List<String> command) throws IOException {
        File out = File.createTempFile("ispn-partition-ip", ".out");
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out)
                    .start();
            boolean ended;
            try {
                ended = p.waitFor(COMMAND_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                throw new IOException("interrupted while running " + command, e);
            }
            if (!ended) {
                p.destroyForcibly();
                throw new IOException(command + " did not end within " + COMMAND_LIMIT);
            }
            return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out.toPath());
        }
    }
}
