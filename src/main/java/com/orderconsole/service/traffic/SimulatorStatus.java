package com.orderconsole.service.traffic;

/**
 * What the traffic simulator did since it was last started (counters are reset by each start).
 *
 * @param running true while it creates orders
 * @param created orders created
 * @param paid payments applied (on time, or late when no sweeper had cancelled the order yet)
 * @param latePays late payments attempted (most are rejected: the order was cancelled)
 * @param shipped orders moved to SHIPPED
 * @param finished orders moved to FINISHED
 */
public record SimulatorStatus(boolean running, long created, long paid, long latePays, long shipped, long finished) {
}
