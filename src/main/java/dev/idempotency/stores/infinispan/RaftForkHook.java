package dev.idempotency.stores.infinispan;

import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import org.jgroups.Message;
import org.jgroups.fork.UnknownForkHandler;
import org.jgroups.protocols.FORK;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolHook;

/**
 * Prepares the {@code FORK} protocol of a cluster node's JGroups stack for the RAFT group of the
 * records ({@link InfinispanRaftStore}), before the channel connects. Named by the shipped XML:
 * {@code <FORK after_creation_hook="dev.idempotency.stores.infinispan.RaftForkHook"/>}; add the same
 * element to your own stack.
 *
 * <p>A node's RAFT stack is a fork of its channel that starts once the channel has joined, so for a
 * moment other members' RAFT messages reach a node that cannot take them yet. This hook makes that
 * moment harmless:
 *
 * <ul>
 *   <li>it registers jgroups-raft's message types first ({@link InfinispanStores#registerRaftTypes}),
 *       so such a message is recognised, not reported as an unreadable packet (SEVERE, "Class for
 *       magic number ... cannot be found");
 *   <li>it drops a message for a fork that is not there yet with a DEBUG line instead of JGroups'
 *       WARN: RAFT sends it again (an append after {@code resend_interval}, a vote request in the next
 *       round), so nothing is lost and nobody has to act.
 * </ul>
 */
public final class RaftForkHook implements ProtocolHook {

    private static final System.Logger LOG = System.getLogger(RaftForkHook.class.getName());

    /** Created by JGroups, by name. */
    public RaftForkHook() {}

    @Override
    public void afterCreation(Protocol protocol) {
        InfinispanStores.registerRaftTypes(RaftForkHook.class.getClassLoader());
        if (protocol instanceof FORK fork) {
            fork.setUnknownForkHandler(new UnknownForkHandler() {
                @Override
                public Object handleUnknownForkStack(Message message, String forkStackId) {
                    LOG.log(
                            System.Logger.Level.DEBUG,
                            "fork stack {0} not started on this node yet; message from {1} dropped (RAFT resends)",
                            forkStackId,
                            message.src());
                    return null;
                }

                @Override
                public Object handleUnknownForkChannel(Message message, String forkChannelId) {
                    return handleUnknownForkStack(message, forkChannelId);
                }
            });
        }
    }
}
