package com.orderconsole.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderStory;

import java.time.Instant;
import java.util.Locale;

/**
 * The story of an order in words and as a JSON document, in the process' language; shared by the
 * order detail's story and the CLI's {@code show --story} so both say the same.
 */
public final class StoryWords {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StoryWords() {
    }

    /**
     * One step in words, e.g. "move to PAID by payment-gw via cli 0.3 s after the timeout cancel: rejected, the
     * order was already CANCELLED"; an applied step says how long after the step before it came.
     *
     * @param s a step of {@link OrderStory}
     * @return the line (no time stamp: the caller shows it beside)
     */
    public static String step(OrderStory.Step s) {
        HistoryEntry h = s.entry();
        if (h.code().applied()) {
            String what = h.from() == null ? Messages.format("story.create", status(h.to()), h.actor(), source(h.source()))
                    : s.override() ? overridden(h) : describe(h);
            return s.previous() == null ? what : Messages.format("story.line.applied", what, gap(s.gapMs()));
        }
        String attempt = Messages.format("story.attempt", status(h.to()), h.actor(), source(h.source()));
        String outcome = outcome(s);
        return s.previous() == null ? Messages.format("story.line.rejectedFirst", attempt, outcome)
                : Messages.format("story.line.rejected", attempt, gap(s.gapMs()), describe(s.previous()), outcome);
    }

    /** @return a rejection's code explained with the status the order had then */
    public static String outcome(OrderStory.Step s) {
        HistoryEntry h = s.entry();
        String before = s.statusBefore() == null ? "-" : status(s.statusBefore());
        String from = h.from() == null ? before : status(h.from());
        return Messages.format("story.rejected." + h.code().code(), before, from, status(h.to()));
    }

    /** @return "Redis v3 · MySQL v2 (sync pending)" or "Redis v3 · MySQL v3" */
    public static String versions(OrderStory.Step s) {
        String v = Messages.format("story.versions", Long.toString(s.redisVersion()), Long.toString(s.mysqlVersion()));
        return s.pending() ? v + " " + Messages.get("story.pending") : v;
    }

    /**
     * @param gapMs a duration in milliseconds
     * @return it in words with one unit: "0.3 s", "12 s", "4 min", "2.5 h", "3 d"
     */
    public static String gap(long gapMs) {
        if (gapMs < 10_000) {
            return Messages.format("story.gap.seconds", String.format(Locale.ROOT, "%.1f", gapMs / 1000.0));
        }
        if (gapMs < 60_000) {
            return Messages.format("story.gap.seconds", Long.toString(Math.round(gapMs / 1000.0)));
        }
        if (gapMs < 3_600_000) {
            return Messages.format("story.gap.minutes", Long.toString(Math.round(gapMs / 60_000.0)));
        }
        if (gapMs < 86_400_000) {
            return Messages.format("story.gap.hours", String.format(Locale.ROOT, "%.1f", gapMs / 3_600_000.0));
        }
        return Messages.format("story.gap.days", String.format(Locale.ROOT, "%.1f", gapMs / 86_400_000.0));
    }

    /**
     * @param source where a change came from, as stored (e.g. "import", "sweeper"); null for none
     * @return its name in the language in use ("导入" in Chinese), the stored name when the bundle has no word for it
     *     (a client's own source), "" for null; exports and filters keep the stored name
     */
    public static String source(String source) {
        if (source == null) {
            return "";
        }
        String key = "source." + source;
        return Messages.bundle().containsKey(key) ? Messages.get(key) : source;
    }

    /** @return a status in the language in use, as every other page names it (the JSON document keeps the names) */
    private static String status(OrderStatus s) {
        return Messages.get("status." + s.name());
    }

    /** @return an override in words, with its reason: it is the step a reader of the story most needs explained */
    private static String overridden(HistoryEntry h) {
        String what = Messages.format("story.override", h.from() == null ? "-" : status(h.from()), status(h.to()), h.actor(), source(h.source()));
        return h.reason() == null || h.reason().isBlank() ? what : Messages.format("story.because", what, h.reason());
    }

    private static String describe(HistoryEntry h) {
        if (h.from() == null && h.code().applied()) {
            return Messages.get("story.theCreation");
        }
        if (h.code().applied() && h.to() == OrderStatus.CANCELLED && "sweeper".equals(h.source())) {
            return Messages.get("story.theTimeoutCancel");
        }
        return h.code().applied() ? Messages.format("story.theMove", status(h.to()), h.actor(), source(h.source()))
                : Messages.format("story.theAttempt", status(h.to()), h.actor(), source(h.source()));
    }

    /**
     * The story as one JSON document: the order now (Redis and MySQL), then every step with its time (epoch ms
     * and ISO-8601 UTC), move, code, who, where from, why, the gap to the step before, the status before, the
     * Redis and MySQL versions, whether it is pending, and its explanation in words.
     *
     * @param story the story
     * @return pretty-printed JSON
     */
    public static String json(OrderStory story) {
        ObjectNode root = JSON.createObjectNode();
        root.put("orderId", story.orderId());
        root.put("readAtMs", story.atMs());
        root.put("readAt", Instant.ofEpochMilli(story.atMs()).toString());
        ObjectNode redis = root.putObject("redis");
        redis.put("status", story.summary().redisStatus() == null ? null : story.summary().redisStatus().name());
        redis.put("version", story.summary().redisVersion());
        ObjectNode mysql = root.putObject("mysql");
        mysql.put("status", story.summary().mysqlStatus() == null ? null : story.summary().mysqlStatus().name());
        mysql.put("version", story.summary().mysqlVersion());
        root.put("syncPending", story.syncPending());
        root.put("rejectedAttempts", story.rejected().size());
        ArrayNode steps = root.putArray("steps");
        for (OrderStory.Step s : story.steps()) {
            HistoryEntry h = s.entry();
            ObjectNode n = steps.addObject();
            n.put("atMs", h.atMs());
            n.put("at", Instant.ofEpochMilli(h.atMs()).toString());
            n.put("from", h.from() == null ? null : status(h.from()));
            n.put("to", status(h.to()));
            n.put("version", h.version());
            n.put("code", h.code().code());
            n.put("result", h.code().name());
            n.put("applied", h.code().applied());
            n.put("actor", h.actor());
            n.put("source", h.source());
            n.put("reason", h.reason());
            n.put("gapMs", s.gapMs());
            n.put("statusBefore", s.statusBefore() == null ? null : status(s.statusBefore()));
            n.put("redisVersion", s.redisVersion());
            n.put("mysqlVersion", s.mysqlVersion());
            n.put("pending", s.pending());
            n.put("override", s.override());
            n.put("explanation", step(s));
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
