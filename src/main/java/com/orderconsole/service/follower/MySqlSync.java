package com.orderconsole.service.follower;

import java.time.Duration;

/**
 * Whether MySQL, the durable record, holds what was changed in Redis: the follower's backlog and a wait for it to catch
 * up, as {@code stats} and the state-changing CLI commands report them. Implemented in-process by {@link Follower} and
 * over serve's HTTP API (where serve's follower applies the outbox and the wait polls serve).
 */
public interface MySqlSync {
    /**
     * @return true when this process applies the outbox; false when another process (serve's follower) does and this
     *     one only reads and waits
     */
    boolean appliesHere();

    /**
     * Waits until nothing is pending in the outbox or the wait is over, and says which it was. The changes stay in the
     * outbox when MySQL does not catch up; the follower applies them later.
     *
     * @param timeout how long to wait, e.g. 30 s
     * @return whether MySQL caught up, and what is pending when it did not
     */
    CatchUp catchUp(Duration timeout);

    /** @return how far MySQL lags Redis: outbox backlog per bucket, oldest pending age, last error */
    FollowerStatus status();
}
