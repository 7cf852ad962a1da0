package com.orderconsole.service.queue;

/**
 * State of the cancel sweepers.
 *
 * @param runningHere true when this process runs a sweeper
 * @param paused true when sweeping is paused (a flag in Redis, obeyed by every sweeper)
 * @param lastTickMs last tick of any sweeper that did its work (swept every bucket, or obeyed a pause), epoch ms (Redis
 *     time), or null when none ever did: a tick that could not sweep (MySQL down under the fence, Redis failing) leaves it
 * @param lastTickBy name of the process that ticked last
 * @param cancelsLastMinute orders this process cancelled during the last 60 s
 * @param cancelledTotal orders this process cancelled since start
 */
public record SweeperStatus(boolean runningHere, boolean paused, Long lastTickMs, String lastTickBy,
                            long cancelsLastMinute, long cancelledTotal) {
}
