package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.order.Orders;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Orders through serve: {@code POST /v1/orders}, {@code GET /v1/orders/{id}}, {@code GET /v1/orders/{id}/story} and
 * {@code GET /v1/orders} (keyset pages with the table's filters). The operator argument is not sent: serve acts as the
 * person the access token names and checks their role, as the in-process service checks the operator's.
 */
public final class RemoteOrders implements Orders {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteOrders(ServeClient serve) {
        this.serve = serve;
    }

    /**
     * @throws IllegalArgumentException when the id exists already (serve answers an existing order with the same body as
     *     found, not created: in-process that is a refusal too) or an argument is invalid
     */
    @Override
    public OrderState create(Operator operator, String orderId, String customerId, java.time.Duration expireIn) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", orderId);
        if (customerId != null) {
            body.put("customerId", customerId);
        }
        body.put("paymentTimeout", expireIn.toString());
        JsonNode o = call(orderId, () -> serve.post("/v1/orders", body));
        if (!o.path("created").asBoolean(true)) {
            throw new IllegalArgumentException("order " + orderId + " exists already; nothing was changed");
        }
        OrderSummary s = CoreRecords.summary(o);
        return new OrderState(orderId, s.status(), s.expectedVersion(), s.statusSinceMs() > 0 ? s.statusSinceMs()
                : s.createdAtMs(), s.createdAtMs());
    }

    @Override
    public OrderDetails lookup(String orderId) {
        return CoreRecords.details(call(orderId, () -> serve.get("/v1/orders/" + ServeClient.encode(orderId))));
    }

    @Override
    public OrderStory story(String orderId) {
        return CoreRecords.story(call(orderId, () -> serve.get("/v1/orders/" + ServeClient.encode(orderId) + "/story")));
    }

    @Override
    public OrderPage page(OrderQuery q, String cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be 1..1000, got " + limit);
        }
        String statuses = q.statuses() == null || q.statuses().isEmpty() ? null
                : q.statuses().stream().map(OrderStatus::name).sorted().collect(Collectors.joining(","));
        String path = ServeClient.path("/v1/orders", "id", q.exactId(), "idPrefix", q.idPrefix(), "status", statuses,
                "stuck", q.stuckOnly() ? "true" : null, "createdFrom", instant(q.createdFromMs()),
                "createdTo", instant(q.createdToMs()), "disagreeing", q.disagreeingOnly() ? "true" : null,
                "sort", q.sortByAge() ? "age" : null, "limit", limit, "after", cursor);
        JsonNode page = call(null, () -> serve.get(path));
        List<OrderSummary> rows = new ArrayList<>();
        CoreRecords.need(page, "orders").forEach(o -> rows.add(CoreRecords.summary(o)));
        return new OrderPage(rows, CoreRecords.text(page.get("next")));
    }

    private static String instant(Long ms) {
        return ms == null ? null : Instant.ofEpochMilli(ms).toString();
    }

    private static JsonNode call(String orderId, java.util.function.Supplier<JsonNode> request) {
        try {
            return request.get();
        } catch (ApiRefusal r) {
            throw CoreRecords.refusal(r, orderId == null ? null : () -> new OrderNotFoundException(orderId));
        }
    }
}
