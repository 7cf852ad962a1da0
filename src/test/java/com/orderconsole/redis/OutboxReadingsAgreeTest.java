package com.orderconsole.redis;

import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An outbox entry is read by two pieces of code: count_outbox.lua, which writes the counters down, and
 * {@link OutboxCount#read}, with which a reader adds up what is not written down yet. If they read one line
 * differently, a count would change the moment the follower counts it: the same lines go to both here.
 */
class OutboxReadingsAgreeTest {
    private static final int BUCKET = 3;
    private RawRedis raw;
    private RedisStores redis;

    @BeforeEach
    void connect() {
        raw = new RawRedis();
        raw.cmd().flushall();
        redis = RedisStores.connect(TestServers.redis().uri(), Duration.ofSeconds(5));
    }

    @AfterEach
    void close() {
        redis.close();
        raw.close();
    }

    private void plant(Map<String, String> fields) {
        raw.cmd().xadd(RedisKeys.outbox(BUCKET), fields);
    }

    private void plant(String e) {
        plant(Map.of("e", e));
    }

    private Map<String, Long> writtenDown() {
        Map<String, Long> out = new HashMap<>();
        raw.cmd().hgetall(RedisKeys.stats(BUCKET)).forEach((k, v) -> {
            if (!"x".equals(k)) {
                out.put(k, Long.parseLong(v));
            }
        });
        return out;
    }

    @Test
    void theScriptAndTheReaderCountTheSameLinesTheSameWay() {
        List<String> lines = List.of(
                "o-1,1,2,2,1\nalice\nconsole\npaid",          // applied: m:1>2
                "o-2,1,5,1,-2\nbob\napi\n",                   // refused: r:1>5:-2
                "o-3,1,2,2,-4\nbob\napi\n",                   // a repeat: r:1>2:-4
                ",1,2,2,1\n\n\n",                             // no order id, still a well-formed outcome line
                "o-4,01,2,2,1\n\n\n",                         // leading zero: both keep the digits as written
                "o-5,99999999999999999999,2,2,1\n\n\n",       // more digits than a long
                "o-6,2,3,3,1",                                // no line end after the outcome
                "o-7,4,1,x,1\n\n\n",                          // version not a number
                "o-8,a,2,2,1\n\n\n",                          // status not a number
                "o-9,1,2,2,+1\n\n\n",                         // a plus sign
                "o-10,1,2,2,1x\n\n\n",                        // trailing letter
                "o-11,1,2,2,1\r\n\n\n",                       // a carriage return
                "o\n-12,1,2,2,1\n\n\n",                       // the order id broken by a line end
                "o-13,\u0661,2,2,1\n\n\n",                    // an Arabic-Indic digit: neither takes it for a digit
                "o-14,1,2\n\n\n",                             // too few fields
                "");
        for (String e : lines) {
            plant(e);
        }
        Map<String, String> eThenMore = new LinkedHashMap<>();
        eThenMore.put("e", "o-15,3,4,4,1\n\n\n");
        eThenMore.put("y", "1");
        plant(eThenMore);
        Map<String, String> eNotFirst = new LinkedHashMap<>();
        eNotFirst.put("a", "1");
        eNotFirst.put("e", "o-16,3,4,4,1\n\n\n");
        plant(eNotFirst);
        Map<String, String> oldForm = new LinkedHashMap<>();
        oldForm.put("order", "o-17");
        oldForm.put("from", "1");
        oldForm.put("to", "2");
        oldForm.put("code", "1");
        plant(oldForm);

        Map<String, Long> readerSum = OutboxCount.read(redis.connection(), BUCKET);
        assertThat(writtenDown()).as("nothing written down yet: a reader writes nothing").isEmpty();
        OutboxCount.run(redis.connection(), BUCKET, null);

        assertThat(writtenDown()).as("count_outbox.lua against the reader's Java reading of the same lines").isEqualTo(readerSum);
        assertThat(readerSum).containsEntry("m:1>2", 2L).containsEntry("r:1>5:-2", 1L).containsEntry("r:1>2:-4", 1L)
                .containsEntry("m:01>2", 1L).containsEntry("m:99999999999999999999>2", 1L).containsEntry("m:3>4", 1L)
                .hasSize(6);
        assertThat(OutboxCount.read(redis.connection(), BUCKET)).as("once counted, a reader adds nothing more").isEqualTo(readerSum);
    }

    @Test
    void aReaderAddsUpAnUncountedTailLongerThanOnePage() {
        int n = OutboxCount.READ_PAGE * 2 + 7;
        for (int i = 0; i < n; i++) {
            plant("o-" + i + ",1,2,2,1\n\n\n");
        }
        assertThat(OutboxCount.read(redis.connection(), BUCKET)).containsEntry("m:1>2", (long) n).hasSize(1);
        OutboxCount.run(redis.connection(), BUCKET, null);
        assertThat(writtenDown()).containsEntry("m:1>2", (long) n);
    }
}
