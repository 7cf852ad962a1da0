package com.orderconsole.redis;

import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.micrometer.core.instrument.MeterRegistry;

import java.net.SocketAddress;

/**
 * The command latency recorder of a Redis client: records nothing until {@link #recordTo} gives it a meter registry,
 * then every command's time to first response and to completion as Lettuce's own Micrometer timers
 * ({@code lettuce_command_firstresponse_seconds}, {@code lettuce_command_completion_seconds}, tagged by command and
 * server). Lettuce takes its recorder when the client is built, before the metrics exist: hence the switch.
 */
final class LatencySwitch implements CommandLatencyRecorder {
    private volatile CommandLatencyRecorder target = CommandLatencyRecorder.disabled();

    /**
     * @param registry where the timers go; the local address is left out of the tags (one series per command and server,
     *     not per connection)
     */
    void recordTo(MeterRegistry registry) {
        target = new MicrometerCommandLatencyRecorder(registry, MicrometerOptions.builder().localDistinction(false).build());
    }

    @Override
    public void recordCommandLatency(SocketAddress local, SocketAddress remote, RedisCommand<?, ?, ?> command, long firstResponse,
                                     long completion) {
        target.recordCommandLatency(local, remote, command, firstResponse, completion);
    }

    @Override
    public void recordCommandLatency(SocketAddress local, SocketAddress remote, ProtocolKeyword type, long firstResponse, long completion) {
        target.recordCommandLatency(local, remote, type, firstResponse, completion);
    }

    @Override
    public boolean isEnabled() {
        return true; // asked when a connection opens: always on, so a registry given later still gets every connection
    }
}
