package com.orderconsole.service.follower;

/**
 * Whether MySQL caught up with the Redis outbox within a wait.
 *
 * @param caughtUp true when nothing was pending any more
 * @param detail when not caught up: what is pending and why, in words (e.g. "12 changes wait in the
 *     Redis outbox (MySQL at 127.0.0.1:3306 is unreachable: ...)"); "" when caught up
 */
public record CatchUp(boolean caughtUp, String detail) {
}
