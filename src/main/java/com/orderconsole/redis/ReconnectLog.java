package com.orderconsole.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.Event;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ReconnectAttemptEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Says in the log when a Redis connection is lost and when it is re-established: Lettuce reconnects by
 * itself and silently, so after an outage nothing told the on-call reader that Redis was back.
 *
 * <p>Per server address, from Lettuce's event bus: an outage begins with a connection's first reconnect
 * attempt (WARN) and ends when a connection to that address is active again (INFO, with how long it
 * lasted). The connections of one client (the shared one and the sweeper's) lose a server together; their
 * outage is logged once. A connection opened for the first time is no reconnect and logs nothing.
 */
final class ReconnectLog {
    private static final Logger log = LoggerFactory.getLogger(ReconnectLog.class);
    /** Since when (epoch ms, this machine's clock) each address has been lost; guarded by this. */
    private final Map<SocketAddress, Long> lostSince = new HashMap<>();

    /**
     * Logs the outages of every connection of this client, until the client shuts down.
     *
     * @param client a client whose resources are its own (their event bus carries only its connections' events)
     */
    static void watch(AbstractRedisClient client) {
        ReconnectLog l = new ReconnectLog();
        // With an error consumer: the bus fails its subscribers when the client shuts down ("Scheduler unavailable"),
        // and without one Reactor logs that as an ERROR with a stack trace on every stop (seen in CI on SIGTERM).
        client.getResources().eventBus().get().subscribe(l::on, e -> log.debug("Redis event bus closed: {}", e.toString()));
    }

    private synchronized void on(Event event) {
        if (event instanceof ReconnectAttemptEvent a && a.getAttempt() == 1 && !lostSince.containsKey(a.remoteAddress())) {
            lostSince.put(a.remoteAddress(), System.currentTimeMillis());
            log.warn("lost the connection to Redis at {}: reconnecting by itself; Redis calls fail until it is back",
                    where(a.remoteAddress()));
        } else if (event instanceof ConnectionActivatedEvent c) {
            Long since = lostSince.remove(c.remoteAddress());
            if (since != null) {
                log.info("Redis at {} is reachable again: connection re-established after {} s; Redis calls go through again",
                        where(c.remoteAddress()), (System.currentTimeMillis() - since + 500) / 1000);
            }
        }
    }

    private static String where(SocketAddress a) {
        return a instanceof InetSocketAddress i ? i.getHostString() + ":" + i.getPort() : String.valueOf(a);
    }
}
