package com.orderconsole.service.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code /health/live} and {@code /health/ready} answer, on the API port and the metrics port alike. Live:
 * the process answers, whatever the servers do (a liveness probe must not restart a serve that can still take transitions
 * while MySQL is down). Ready: Redis answers, so transitions are taken; MySQL's state and every other problem are listed as
 * reasons, and a ready serve may still have some. Built from the sampler's latest reading: never waits on a server.
 *
 * @param ready true when Redis answered the latest sample
 * @param redisOk Redis answered
 * @param mysqlOk MySQL answered (creation, lookups and the feed need it; transitions do not)
 * @param reasons every problem in words (empty when none)
 */
public record Readiness(boolean ready, boolean redisOk, boolean mysqlOk, List<String> reasons) {
    public Readiness {
        reasons = List.copyOf(reasons);
    }

    /** @return the readiness of a reading */
    public static Readiness of(Reading r) {
        return new Readiness(r.redisOk(), r.redisOk(), r.mysqlOk(), r.problems());
    }

    /** @return the HTTP status of /health/ready: 200 when ready, else 503 */
    public int httpStatus() {
        return ready ? 200 : 503;
    }

    /** @return the JSON document of /health/ready */
    public Map<String, Object> document() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("status", ready ? (reasons.isEmpty() ? "ready" : "ready-with-reasons") : "not-ready");
        doc.put("redis", redisOk ? "ok" : "failing");
        doc.put("mysql", mysqlOk ? "ok" : "failing");
        doc.put("transitions", redisOk ? "taken (MySQL receives them through the outbox)" : "refused: Redis does not answer");
        doc.put("reasons", reasons);
        return doc;
    }

    /** @return the JSON document of /health/live: always 200 while the process answers */
    public static Map<String, Object> liveDocument() {
        return Map.of("status", "live");
    }
}
