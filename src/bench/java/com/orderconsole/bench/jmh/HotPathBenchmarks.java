package com.orderconsole.bench.jmh;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.rules.RulesJson;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Client-side CPU per transition, outside any server: what the service adds to each call before a
 * byte reaches Redis (key hashing, request validation) and the rules parse done on every rules change.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HotPathBenchmarks {
    private final String[] ids = new String[1024];
    private String rulesJson;
    private int next;

    /** Prepares realistic ids (Olist-like 32 hex characters) and the default rules document. */
    @Setup
    public void setUp() {
        for (int i = 0; i < ids.length; i++) {
            ids[i] = String.format("%032x", (long) i * 0x9E3779B97F4AL);
        }
        rulesJson = RulesJson.write(TransitionRules.defaults());
    }

    private String nextId() {
        next = (next + 1) & (ids.length - 1);
        return ids[next];
    }

    /** CRC-32 bucket of an order id. */
    @Benchmark
    public int bucketOfId() {
        return RedisKeys.bucket(nextId());
    }

    /** The five key names one transition call builds (each hashes the id once). */
    @Benchmark
    public String[] transitionKeys() {
        String id = nextId();
        int b = RedisKeys.bucket(id);
        return new String[]{RedisKeys.order(id), RedisKeys.rules(b), RedisKeys.outbox(b), RedisKeys.cancelQueue(b), RedisKeys.stats(b)};
    }

    /** A validated transition request (order id regex, reason length). */
    @Benchmark
    public TransitionRequest transitionRequest() {
        return TransitionRequest.of(nextId(), OrderStatus.PAID, "api", "");
    }

    /** Parsing and validating the rules JSON (done once per rules change, and on every cache refresh). */
    @Benchmark
    public TransitionRules parseRules() {
        return RulesJson.parse(rulesJson, 1);
    }
}
