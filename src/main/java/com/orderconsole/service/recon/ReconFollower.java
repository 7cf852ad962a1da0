package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;

import java.util.Map;

/**
 * The follower as reconciliation sees it: the one seam through which compares and repairs reach it, so no
 * repair finds a second way. It adds nothing to {@link Follower}'s own methods, whose documentation holds.
 */
interface ReconFollower {

    /** @return the outbox backlog now (the SYNC_PENDING finding) */
    FollowerStatus status();

    /**
     * Reads (changes nothing) one bucket's pending outbox: per order, the version applying it brings MySQL to.
     *
     * @param cap entries read at most
     * @return order id to version, or null when more than {@code cap} entries wait
     */
    Map<String, Long> pendingVersions(int bucket, int cap);

    /**
     * Applies what the outbox holds now, every bucket. Applies nothing (returns 0) when this session's account
     * does not hold the follower role: the process that does applies it.
     *
     * @return entries applied
     */
    int catchUp();

    /**
     * Moves an order row forward to a version its own MySQL history records as applied.
     *
     * @return true when the history records that version and status (the row is there now), false when not
     */
    boolean reapplyHistory(String orderId, long version, OrderStatus status);

    /** @return the seam over the process's follower */
    static ReconFollower of(Follower follower) {
        return new ReconFollower() {
            @Override
            public FollowerStatus status() {
                return follower.status();
            }

            @Override
            public Map<String, Long> pendingVersions(int bucket, int cap) {
                return follower.pendingVersions(bucket, cap);
            }

            @Override
            public int catchUp() {
                return follower.drainOnce();
            }

            @Override
            public boolean reapplyHistory(String orderId, long version, OrderStatus status) {
                return follower.reapplyHistory(orderId, version, status);
            }
        };
    }
}
