package com.orderconsole.api;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.service.feed.ChangeFeed;
import com.orderconsole.service.feed.FeedWatcher;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /v1/events?after=CURSOR&limit=N&wait=SECONDS}: the change feed ({@link ChangeFeed}), long-polled: with
 * nothing new the request waits on the {@link FeedWatcher}, holding no thread and reading nothing, until the watcher sees
 * something past its cursor (then it reads its page) or {@code wait} has passed (then it answers the empty page it read).
 */
final class FeedRoute {
    /** Longest long-poll, in seconds. */
    static final int MAX_WAIT_SECONDS = 30;
    static final int DEFAULT_LIMIT = 100;

    private final ChangeFeed feed;
    private final FeedWatcher watcher;
    private final MysqlWork mysql;
    /**
     * Long polls' reads in flight by limit and cursor: pollers woken together at the same cursor share one read, so a
     * wake of hundreds is one task on the MySQL pool, not hundreds (which overflowed its queue into 503s).
     */
    private final Map<String, CompletableFuture<ChangeFeed.Page>> sharedReads = new ConcurrentHashMap<>();

    FeedRoute(ChangeFeed feed, FeedWatcher watcher, MysqlWork mysql) {
        this.feed = feed;
        this.watcher = watcher;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(Route.get("/v1/events", this::events, "after", "limit", "wait"));
    }

    void events(ApiCall ctx) {
        String after = ctx.queryParam("after");
        QueryParams q = new QueryParams(ctx);
        int limit = q.number("limit", DEFAULT_LIMIT, 1, ChangeFeed.MAX_LIMIT);
        int wait = q.number("wait", 0, 0, MAX_WAIT_SECONDS);
        try {
            ChangeFeed.requireCursor(after);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(wait);
        ctx.future(() -> poll(after, limit, deadline).handle((page, e) -> {
            if (e != null) {
                ApiProblem p = HttpMapping.problem(e);
                if (MysqlWork.isTimeout(e)) {
                    // Each read of a long poll has the timeout: the wait said is one read's, not the poll's.
                    p = ApiProblem.unavailable("MySQL did not answer a read within " + String.format(java.util.Locale.ROOT,
                            "%.1f s", mysql.timeout().toMillis() / 1000.0) + "; the feed is read from MySQL's history: resume from the same cursor");
                }
                ctx.answer(p);
            } else {
                ctx.json(200, pageDocument(page));
            }
            return null;
        }));
    }

    /**
     * Reads a page; when it is empty and time is left, waits for the watcher's word and reads again. A wait that ends
     * answers the last page read: no events, its cursor, whether a held row stopped it.
     */
    private CompletableFuture<ChangeFeed.Page> poll(String cursor, int limit, long deadline) {
        boolean waits = deadline > System.nanoTime();
        CompletableFuture<ChangeFeed.Page> read = waits ? sharedRead(cursor, limit)
                : mysql.supply(() -> feed.read(cursor, limit));
        return read.thenCompose(page -> {
            long left = deadline - System.nanoTime();
            if (!page.events().isEmpty() || left <= 0) {
                return CompletableFuture.completedFuture(page);
            }
            return watcher.awaitNews(page.cursor(), Duration.ofNanos(left))
                    .thenCompose(news -> news ? poll(page.cursor(), limit, deadline) : CompletableFuture.completedFuture(page));
        });
    }

    /**
     * A long poll's read, joined to one in flight for the same cursor and limit. Only long polls share: one that waits
     * anyway loses nothing by a read begun a moment before it came, while a request without a wait reads on its own.
     */
    private CompletableFuture<ChangeFeed.Page> sharedRead(String cursor, int limit) {
        String key = limit + "/" + (cursor == null ? "" : cursor);
        CompletableFuture<ChangeFeed.Page> mine = new CompletableFuture<>();
        CompletableFuture<ChangeFeed.Page> read = sharedReads.putIfAbsent(key, mine);
        if (read != null) {
            return read;
        }
        mysql.supply(() -> feed.read(cursor, limit)).whenComplete((page, e) -> {
            sharedReads.remove(key, mine);
            if (e != null) {
                mine.completeExceptionally(e);
            } else {
                mine.complete(page);
            }
        });
        return mine;
    }

    private static Map<String, Object> pageDocument(ChangeFeed.Page page) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (ChangeFeed.Event e : page.events()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("cursor", e.cursor());
            doc.putAll(entryDocument(e.entry()));
            events.add(doc);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("events", events);
        doc.put("cursor", page.cursor());
        // True when the read stopped at a row a MySQL transaction still holds: what follows it comes once it commits.
        doc.put("waitingOnUncommitted", page.heldBy() != null);
        // True when it stopped at a gap in the history's ids not yet known to be for good: it passes within about a second
        // once the transactions open at its first sight have ended, or after the grace where serve may not list them.
        doc.put("waitingOnGap", page.heldAtGap());
        return doc;
    }

    /** One history row as the API shows it (in the feed and in an order's history). */
    static Map<String, Object> entryDocument(HistoryEntry h) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("orderId", h.orderId());
        doc.put("from", h.from() == null ? null : h.from().name());
        doc.put("to", h.to().name());
        doc.put("version", h.version());
        doc.put("code", h.code().code());
        doc.put("result", h.code().name());
        doc.put("actor", h.actor());
        doc.put("source", h.source());
        doc.put("reason", h.reason());
        doc.put("at", Instant.ofEpochMilli(h.atMs()).toString());
        doc.put("atMs", h.atMs());
        return doc;
    }
}
