package com.orderconsole.service.monitor;

/**
 * One Redis master and its share of the buckets (on a single server, the server with every bucket).
 *
 * @param where "host:port"
 * @param buckets buckets whose hash slot this master serves
 * @param share buckets / all buckets, 0..1
 */
public record RedisMaster(String where, int buckets, double share) {
}
