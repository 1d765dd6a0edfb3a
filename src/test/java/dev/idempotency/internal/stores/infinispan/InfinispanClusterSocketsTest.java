package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every socket a node of the shipped clustered configuration listens on is bound to the configured
 * address ({@code idempotency.infinispan.bind-address}), none to every interface. The kernel's own
 * tables are the evidence: the listening TCP sockets and the UDP sockets in {@code /proc/net/*} whose
 * inodes this JVM holds (the {@code socket:[inode]} links in {@code /proc/self/fd}) and which were not
 * open before the node started. The test fails if a socket is added to the stack without a bind
 * address, as the failure-detection socket was.
 */
class InfinispanClusterSocketsTest {

    private static final int PORT = TestServices.port(7840);
    private static final int FD_OFFSET = 50;

    @Test
    void everySocketANodeListensOnIsBoundToTheConfiguredAddress() throws Exception {
        Set<BoundSocket> before = socketsOfThisJvm();
        Properties p = new Properties();
        p.setProperty("idempotency.infinispan.bind-address", "127.0.0.1");
        // The default JGroups stack opens its diagnostics (probe) socket on every interface when this
        // property is set, as any -D option reaches the placeholders; the shipped stack must not.
        p.setProperty("jgroups.diag.enabled", "true");
        List<BoundSocket> opened = new ArrayList<>();
        ClusterNodes alone = new ClusterNodes("idempotency-sockets", List.of(PORT), Map.of());
        try (InfinispanRaftStore node = alone.start(PORT, p)) {
            // A RAFT group of one: this node leads it, over the same channel (no socket of its own).
            ClusterNodes.awaitLeader(Duration.ofSeconds(30), node);
            assertThat(node.visibleMembers()).isEqualTo(1);
            for (BoundSocket s : socketsOfThisJvm()) {
                if (!before.contains(s)) {
                    opened.add(s);
                }
            }
        }
        // The JGroups transport and the failure-detection socket at least; whatever else opens (a
        // diagnostics socket, say) must obey the same rule.
        assertThat(opened)
                .as("listening sockets the node opened")
                .filteredOn(s -> s.protocol().startsWith("tcp"))
                .extracting(BoundSocket::port)
                .contains(PORT, PORT + FD_OFFSET);
        assertThat(opened)
                .as("every socket the node opened is bound to 127.0.0.1, none to all interfaces")
                .allSatisfy(s ->
                        assertThat(s.address().getHostAddress()).as("%s", s).isEqualTo("127.0.0.1"));
    }

    /** A socket of this JVM: listening TCP (state 0A) or any UDP socket, from the kernel's tables. */
    record BoundSocket(String protocol, InetAddress address, int port, long inode) {
        @Override
        public String toString() {
            return protocol + " " + address.getHostAddress() + ":" + port + " (inode " + inode + ")";
        }
    }

    private static final Pattern SOCKET_LINK = Pattern.compile("socket:\\[(\\d+)]");

    static Set<BoundSocket> socketsOfThisJvm() throws IOException {
        Set<Long> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    Matcher m = SOCKET_LINK.matcher(Files.readSymbolicLink(fd).toString());
                    if (m.matches()) {
                        inodes.add(Long.parseLong(m.group(1)));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor (of the listing itself, say) is gone: not a socket of interest
                }
            }
        }
        Set<BoundSocket> sockets = new HashSet<>();
        for (String protocol : List.of("tcp", "tcp6", "udp", "udp6")) {
            Path table = Path.of("/proc/net", protocol);
            if (!Files.exists(table)) {
                continue;
            }
            List<String> lines = Files.readAllLines(table);
            for (String line : lines.subList(1, lines.size())) {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                String[] f = line.trim().split("\\s+");
                long inode = Long.parseLong(f[9]);
                boolean listening = protocol.startsWith("udp") || f[3].equals("0A");
                if (listening && inodes.contains(inode)) {
                    String[] local = f[1].split(":");
                    sockets.add(new BoundSocket(protocol, address(local[0]), Integer.parseInt(local[1], 16), inode));
                }
            }
        }
        return sockets;
    }

    /** The kernel prints an address as 32-bit words in host (little-endian) byte order. */
    private static InetAddress address(String hex) throws UnknownHostException {
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int b = 0; b < 4; b++) {
                int at = (word * 4 + b) * 2;
                bytes[word * 4 + 3 - b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) comes back as the Inet4Address.
        return InetAddress.getByAddress(bytes);
    }
}
