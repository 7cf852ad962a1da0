package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.follower.MySqlSync;

import java.time.Duration;

/**
 * serve's follower as the console and the CLI see it remotely ({@code GET /v1/health}'s {@code sync}): serve applies the
 * outbox to MySQL, never this process; a catch-up asks serve until its backlog is empty.
 */
public final class RemoteMySqlSync implements MySqlSync {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteMySqlSync(ServeClient serve) {
        this.serve = serve;
    }

    /** @return false: serve's follower applies the outbox, never this process */
    @Override
    public boolean appliesHere() {
        return false;
    }

    @Override
    public CatchUp catchUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            FollowerStatus st = status();
            if (st.pending() == 0) {
                return new CatchUp(true, "");
            }
            if (System.nanoTime() > deadline) {
                return new CatchUp(false, st.pending() + (st.pendingCapped() ? "+" : "") + " changes wait in serve's Redis outbox"
                        + (st.lastError() == null ? "" : " (" + st.lastError() + ")"));
            }
            try {
                Thread.sleep(RemoteTransitions.POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new CatchUp(false, "the wait for MySQL was interrupted");
            }
        }
    }

    /** @return serve's follower status; {@code appliedTotal} is not published by serve and reads 0 */
    @Override
    public FollowerStatus status() {
        JsonNode s = CoreRecords.need(serve.get("/v1/health"), "sync");
        return new FollowerStatus(s.path("pending").asLong(), s.path("pendingCapped").asBoolean(),
                s.hasNonNull("oldestPendingAgeMs") ? s.get("oldestPendingAgeMs").asLong() : null, 0,
                CoreRecords.text(s.get("lastError")), CoreRecords.text(s.get("backlogWarning")));
    }
}
