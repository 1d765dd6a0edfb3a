package dev.idempotency.bench;

import dev.idempotency.internal.stores.infinispan.ClusterNodes;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import java.io.DataInput;
import java.io.DataOutput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.infinispan.factories.GlobalComponentRegistry;
import org.infinispan.remoting.transport.Transport;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.JChannel;
import org.jgroups.fork.ForkChannel;
import org.jgroups.protocols.raft.ELECTION;
import org.jgroups.protocols.raft.FileBasedLog;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.protocols.raft.REDIRECT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.StateMachine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Claims per second of the Infinispan cluster store (three members in this JVM on the shipped
 * configuration, JGroups over 127.0.0.1, RAFT logs under {@code target/raft-state}) against the floor
 * of its design: one RAFT commit of a command of the same size through a second RAFT group on the
 * same three channels, whose state machine does nothing. Every claim uses a new key; calls go through
 * member 1, which may or may not lead (a follower's command goes to the leader first, as half of a
 * real cluster's calls do).
 *
 * <ul>
 *   <li>{@code claim}: one new key, one command;
 *   <li>{@code claimAndComplete}: a new key claimed and completed, two commands, what a guarded call costs;
 *   <li>{@code rawCommit}: one command of 200 bytes through the bare group.
 * </ul>
 *
 * <pre>
 * mvn -Pbench verify -DskipTests -DskipITs -Djmh.args='InfinispanClusterClaimBench -f 1 -wi 3 -i 5 -t 4'
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx6g", "-Djava.net.preferIPv4Stack=true"})
public class InfinispanClusterClaimBench {

    /** {@code idempotency.infinispan.fsync}, and the bare group's. */
    @Param({"true", "false"})
    public boolean fsync;

    private final List<InfinispanRaftStore> members = new ArrayList<>();
    private final List<ForkChannel> bare = new ArrayList<>();
    private final List<RaftHandle> bareHandles = new ArrayList<>();
    private InfinispanRaftStore store;
    private RaftHandle floor;
    private final AtomicLong keys = new AtomicLong();
    private final Duration lease = Duration.ofMinutes(1);
    private final byte[] command = new byte[200];
    private final byte[] outcome = "{\"t\":\"value\",\"v\":{\"id\":42,\"status\":\"PAID\"}}".getBytes();

    /** Starts the three members and the bare RAFT group on their channels. */
    @Setup(Level.Trial)
    public void start() throws Exception {
        List<Integer> ports = List.of(7830, 7831, 7832);
        ClusterNodes cluster = new ClusterNodes(
                "idempotency-bench-" + fsync, ports, Map.of(InfinispanStoreSettings.FSYNC, String.valueOf(fsync)));
        for (int port : ports) {
            members.add(cluster.start(port));
        }
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), members.toArray(InfinispanRaftStore[]::new));
        for (InfinispanRaftStore m : members) {
            JChannel main = ((JGroupsTransport) GlobalComponentRegistry.componentOf(m.cacheManager(), Transport.class))
                    .getChannel();
            RAFT raft = new RAFT()
                    .raftId(m.raftId())
                    .members(m.members())
                    .logClass(FileBasedLog.class.getName())
                    .logDir("target/raft-state/bench-floor-" + fsync + "-"
                            + ProcessHandle.current().pid())
                    .logPrefix("floor-" + m.raftId().replace(':', '_'))
                    .maxLogSize(64L * 1024 * 1024)
                    .logUseFsync(fsync);
            ForkChannel ch = new ForkChannel(main, "bench-floor", "bench-floor", new ELECTION(), raft, new REDIRECT());
            RaftHandle h = new RaftHandle(ch, new Nothing());
            ch.connect("bench-floor");
            bare.add(ch);
            bareHandles.add(h);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (bareHandles.stream().anyMatch(h -> h.leader() == null)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the bare RAFT group elected no leader within 60 s");
            }
            Thread.sleep(20);
        }
        store = members.get(1);
        floor = bareHandles.get(1);
    }

    /** Leaves both groups and stops the members. */
    @TearDown(Level.Trial)
    public void stop() {
        for (ForkChannel ch : bare) {
            ch.close();
        }
        for (int i = members.size() - 1; i >= 0; i--) {
            members.get(i).close();
        }
    }

    private String nextKey() {
        return Long.toHexString(keys.incrementAndGet() | 0x1000_0000_0000_0000L) + "-" + fsync;
    }

    /** One claim of a new key. */
    @Benchmark
    public boolean claim() {
        return store.claim(nextKey(), "owner", "fp", lease).claimed();
    }

    /** A new key claimed and completed: what a guarded call costs the store. */
    @Benchmark
    public boolean claimAndComplete() {
        String key = nextKey();
        store.claim(key, "owner", "fp", lease);
        return store.complete(key, "owner", outcome, lease);
    }

    /** The floor: one RAFT commit of 200 bytes through a group whose state machine does nothing. */
    @Benchmark
    public byte[] rawCommit() throws Exception {
        return floor.setAsync(command, 0, command.length, null).get(10, TimeUnit.SECONDS);
    }

    /** A state machine that keeps nothing. */
    static final class Nothing implements StateMachine {
        @Override
        public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) {
            return serializeResponse ? new byte[0] : null;
        }

        @Override
        public void readContentFrom(DataInput in) {}

        @Override
        public void writeContentTo(DataOutput out) {}
    }
}
