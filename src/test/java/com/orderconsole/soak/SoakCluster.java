package com.orderconsole.soak;

import com.orderconsole.ClusterNodes;
import io.lettuce.core.MigrateArgs;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import com.orderconsole.redis.RedisKeys;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The soak's own Redis Cluster: {@code masters} {@link SoakRedis} nodes in cluster mode (no replicas),
 * each with AOF everysec, joined with CLUSTER MEET and given an even share of the 16,384 slots. Unlike
 * embedded-redis's cluster, each node can be SIGKILLed and started again on the same port, with its AOF
 * or wiped, keeping its node id and slots: the faults of issue 16.
 */
final class SoakCluster implements AutoCloseable {
    private static final int SLOTS = 16_384;
    private final List<SoakRedis> nodes = new ArrayList<>();
    private boolean formed;

    /** @param home a directory of its own; node {@code i} lives in {@code home/node-i} */
    SoakCluster(Path home, int masters) {
        for (int i = 0; i < masters; i++) {
            nodes.add(new SoakRedis(home.resolve("node-" + i), true));
        }
    }

    /** Starts every node that is down; the first time also forms the cluster. Waits for cluster_state:ok. */
    synchronized void start() {
        nodes.forEach(SoakRedis::start);
        if (!formed) {
            for (int i = 0; i < nodes.size(); i++) {
                int from = SLOTS * i / nodes.size();
                int to = SLOTS * (i + 1) / nodes.size();
                int[] slots = new int[to - from];
                for (int s = from; s < to; s++) {
                    slots[s - from] = s;
                }
                ClusterNodes.onNode(nodes.get(i).port(), r -> r.clusterAddSlots(slots));
            }
            for (int i = 1; i < nodes.size(); i++) {
                int port = nodes.get(i).port();
                ClusterNodes.onNode(nodes.get(0).port(), r -> r.clusterMeet("127.0.0.1", port));
            }
            formed = true;
        }
        awaitOk(30_000);
    }

    /** Waits until every node says cluster_state:ok and knows every master. */
    void awaitOk(long timeoutMs) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (true) {
            boolean ok = true;
            for (SoakRedis n : nodes) {
                try {
                    ok &= ClusterNodes.onNode(n.port(), r -> r.clusterInfo().contains("cluster_state:ok")
                            && r.clusterNodes().lines().filter(l -> l.contains("master") && !l.contains("fail")).count() == nodes.size());
                } catch (RuntimeException e) {
                    ok = false;
                }
            }
            if (ok) {
                return;
            }
            if (System.currentTimeMillis() > end) {
                throw new IllegalStateException("the soak's Redis Cluster did not reach cluster_state:ok within " + Soak.secs(timeoutMs));
            }
            Soak.sleep(100);
        }
    }

    /** @return every node (all masters) */
    List<SoakRedis> nodes() {
        return nodes;
    }

    /** @return an ordinary URI of node {@code i % masters}, as an operator would give it */
    String uri(int i) {
        return nodes.get(Math.floorMod(i, nodes.size())).uri();
    }

    /** @return the node whose port is {@code port} */
    SoakRedis node(int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
    }

    /** @return true while every node's process lives */
    boolean running() {
        return nodes.stream().allMatch(SoakRedis::running);
    }

    /** @return per master port, its node id and slot ranges as CLUSTER NODES says on a node that answers */
    Map<Integer, String[]> masters() {
        RuntimeException last = null;
        for (SoakRedis n : nodes) {
            if (!n.running()) {
                continue;
            }
            try {
                return ClusterNodes.masters(ClusterNodes.onNode(n.port(), RedisCommands::clusterNodes));
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no node of the soak's cluster answers CLUSTER NODES", last);
    }

    /** @return the port of the master serving {@code slot} */
    int ownerOf(int slot) {
        return ClusterNodes.ownerOf(slot, masters());
    }

    /** @return per master port (every master, in port order), the engine's buckets whose slot it serves now */
    Map<Integer, List<Integer>> bucketsByMaster() {
        Map<Integer, String[]> m = masters();
        Map<Integer, List<Integer>> out = new java.util.TreeMap<>();
        m.keySet().forEach(p -> out.put(p, new ArrayList<>()));
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            out.get(ClusterNodes.ownerOf(SlotHash.getSlot(RedisKeys.hashTag(b)), m)).add(b);
        }
        return out;
    }

    /**
     * Moves one slot from its master to {@code target} while traffic flows, as an operator's resharding
     * does: SETSLOT IMPORTING on the target, MIGRATING on the source, MIGRATE a few keys at a time, then
     * SETSLOT NODE on the target, the source and the others. Clients meanwhile get ASK (a key already moved)
     * and TRYAGAIN (a script's keys split between the two).
     *
     * @return how many keys moved
     */
    int migrateSlot(int slot, int target) {
        int source = ownerOf(slot);
        if (source == target) {
            return 0;
        }
        Map<Integer, String[]> m = masters();
        String sourceId = m.get(source)[0];
        String targetId = m.get(target)[0];
        ClusterNodes.onNode(target, r -> r.clusterSetSlotImporting(slot, sourceId));
        ClusterNodes.onNode(source, r -> r.clusterSetSlotMigrating(slot, targetId));
        int moved = 0;
        while (true) {
            List<String> keys = ClusterNodes.onNode(source, r -> r.clusterGetKeysInSlot(slot, 3));
            if (keys.isEmpty()) {
                break;
            }
            ClusterNodes.onNode(source, r -> r.migrate("127.0.0.1", target, 0, 5000, MigrateArgs.Builder.keys(keys)));
            moved += keys.size();
            // A few keys at a time, slowly: the followers (every outbox, every 200 ms), the sweepers and the
            // clients meet the slot half moved for seconds, not for the 0.2 s a bucket takes at full speed.
            Soak.sleep(100);
        }
        ClusterNodes.onNode(target, r -> r.clusterSetSlotNode(slot, targetId));
        ClusterNodes.onNode(source, r -> r.clusterSetSlotNode(slot, targetId));
        for (SoakRedis n : nodes) {
            if (n.port() != source && n.port() != target) {
                ClusterNodes.onNode(n.port(), r -> r.clusterSetSlotNode(slot, targetId));
            }
        }
        return moved;
    }

    @Override
    public synchronized void close() {
        nodes.forEach(SoakRedis::close);
    }
}
