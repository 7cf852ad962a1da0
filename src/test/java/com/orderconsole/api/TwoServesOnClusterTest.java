package com.orderconsole.api;

import com.orderconsole.Slow;
import com.orderconsole.TestCluster;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;

/**
 * {@link TwoServesTest} against a Redis Cluster of three masters (issue 32, item 3: "the same Redis, single or cluster"):
 * two serves with their followers and sweepers share the cluster and MySQL; every acknowledged transition is in MySQL
 * exactly once, and the payment/cancel race has one winner per order, with the buckets spread over three masters.
 */
@Slow
class TwoServesOnClusterTest extends TwoServesTest {
    @Override
    EngineConfig emptyServers() {
        TestServers.reset();
        TestCluster.reset();
        return TestServers.config().withServers(TestCluster.seedUri(), TestServers.mariaDb().jdbcUrl(), "root", "");
    }
}
