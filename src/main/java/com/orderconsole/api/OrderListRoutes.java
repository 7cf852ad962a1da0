package com.orderconsole.api;

import com.orderconsole.domain.OrderId;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.service.order.OrderSummary;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code GET /v1/orders} (the console's orders page: keyset pages with its filters) and {@code GET /v1/orders/{id}/story}
 * (an order's detail and story). Reads: every role may make them, as at the console.
 */
final class OrderListRoutes {
    /** Rows per page when {@code limit} is not given: the console's page. */
    static final int DEFAULT_LIMIT = 100;
    /** The shape of a cursor the order service hands out: time in status (epoch ms), a bar, an order id. */
    private static final Pattern CURSOR = Pattern.compile("-?\\d{1,19}\\|.+");

    private final OrderService orders;
    private final MysqlWork mysql;

    OrderListRoutes(OrderService orders, MysqlWork mysql) {
        this.orders = orders;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/orders", this::list, "id", "status", "idPrefix", "stuck", "createdFrom", "createdTo", "disagreeing",
                        "sort", "limit", "after"),
                Route.get("/v1/orders/{id}/story", this::story));
    }

    private void list(ApiCall call) {
        QueryParams q = new QueryParams(call);
        String prefix = q.text("idPrefix");
        OrderQuery query;
        try {
            query = new OrderQuery(q.text("id"), prefix, q.statuses("status"), q.flag("stuck"), q.time("createdFrom", false),
                    q.time("createdTo", true), q.flag("disagreeing"), q.choice("sort", "id", "id", "age").equals("age"));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
        int limit = q.number("limit", DEFAULT_LIMIT, 1, 1000);
        String after = q.text("after");
        if (after != null) {
            int bar = after.indexOf('|');
            if (!CURSOR.matcher(after).matches() || !OrderId.isValid(after.substring(bar + 1))) {
                throw ApiProblem.badInput("after '" + JsonBody.printable(after) + "' is not a cursor this API gave: pass the "
                        + "\"next\" of the page before, with the same filters and sort");
            }
        }
        mysql.answer(call, 200, () -> pageDocument(orders.page(query, after, limit)), "nothing was changed; ask again");
    }

    private static Map<String, Object> pageDocument(OrderPage page) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (OrderSummary o : page.rows()) {
            rows.add(summaryDocument(o));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("orders", rows);
        doc.put("next", page.nextCursor());
        return doc;
    }

    /** One order as the orders page shows it: Redis and MySQL side by side. */
    static Map<String, Object> summaryDocument(OrderSummary o) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", o.orderId());
        doc.put("customerId", o.customerId());
        doc.put("status", o.status() == null ? null : o.status().name());
        doc.put("version", o.redisStatus() != null ? o.redisVersion() : o.mysqlVersion());
        doc.put("redis", o.redisStatus() == null ? null : Map.of("status", o.redisStatus().name(), "version", o.redisVersion()));
        doc.put("mysql", o.mysqlStatus() == null ? null : Map.of("status", o.mysqlStatus().name(), "version", o.mysqlVersion()));
        doc.put("disagrees", o.disagrees());
        doc.put("retired", o.retired());
        doc.put("createdAt", Instant.ofEpochMilli(o.createdAtMs()).toString());
        doc.put("statusSince", o.statusSinceMs() <= 0 ? null : Instant.ofEpochMilli(o.statusSinceMs()).toString());
        doc.put("paymentDeadline", o.expireAtMs() == null ? null : Instant.ofEpochMilli(o.expireAtMs()).toString());
        return doc;
    }

    private void story(ApiCall call) {
        String id = checkedId(call.id());
        mysql.answer(call, 200, () -> storyDocument(orders.story(id)), "nothing was changed; ask again");
    }

    private static Map<String, Object> storyDocument(OrderStory story) {
        List<Map<String, Object>> steps = new ArrayList<>();
        for (OrderStory.Step s : story.steps()) {
            Map<String, Object> step = FeedRoute.entryDocument(s.entry());
            step.put("statusBefore", s.statusBefore() == null ? null : s.statusBefore().name());
            step.put("gapMs", s.gapMs());
            step.put("pending", s.pending());
            step.put("override", s.override());
            step.put("redisVersion", s.redisVersion());
            step.put("mysqlVersion", s.mysqlVersion());
            steps.add(step);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("order", summaryDocument(story.summary()));
        doc.put("steps", steps);
        doc.put("syncPending", story.syncPending());
        doc.put("at", Instant.ofEpochMilli(story.atMs()).toString());
        return doc;
    }

    static String checkedId(String id) {
        try {
            return OrderId.require(id, "order id");
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
    }
}
