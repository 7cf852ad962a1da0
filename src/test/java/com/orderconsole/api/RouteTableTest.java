package com.orderconsole.api;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hand-made router: which route a path takes, what its {name} segments decode to, and what a match costs. */
class RouteTableTest {
    private static final Route.Handler NONE = call -> { };
    private final RouteTable table = new RouteTable(List.of(
            Route.post("/v1/orders", NONE), Route.get("/v1/orders", NONE, "status"),
            Route.post("/v1/orders/{id}/transitions", NONE).runInline(), Route.get("/v1/orders/{id}", NONE),
            Route.get("/v1/orders/{id}/story", NONE), Route.get("/v1/cancel-queue/entries", NONE),
            Route.post("/v1/cancel-queue/entries/{id}/remove", NONE), Route.get("/v1/x/{id}", NONE), Route.get("/v1/x/summary", NONE),
            Route.get("/v1/reconciliations/{id}/repairs/{category}", NONE), Route.get("/v1/openapi.json", NONE).withoutCredentials()));

    @Test
    void aPathTakesItsRouteWithItsSegmentsDecodedAndALiteralSegmentWins() {
        assertThat(table.match("/v1/orders", null).allow()).isEqualTo("GET, HEAD, POST");
        assertThat(table.match("/v1/orders/A%2D1/transitions", null).route("POST").inline()).isTrue();
        assertThat(table.match("/v1/orders/A-1", null).route("HEAD")).as("HEAD is answered as GET").isNotNull();
        assertThat(table.match("/v1/orders/A-1", null).route("POST")).isNull();
        assertThat(table.match("/v1/x/summary", null).template()).isEqualTo("/v1/x/summary");
        assertThat(table.match("/v1/x/other", null).template()).isEqualTo("/v1/x/{id}");
        assertThat(table.match("/v1/orders//transitions", null)).as("an empty id").isNull();
        assertThat(table.match("/v1/orders/A-1/nothing", null)).isNull();
        assertThat(table.match("/v1/nothing", null)).isNull();
        assertThat(table.match("/v1/openapi.json", null).open()).isTrue();
        assertThat(table.match("/v1/orders", null).open()).isFalse();
        assertThatThrownBy(() -> new RouteTable(List.of(Route.get("/a", NONE), Route.get("/a", NONE))))
                .hasMessageContaining("two routes for GET /a");
    }

    @Test
    void aMatchOfTheTransitionPathCostsAFewHundredNanoseconds() {
        int n = 2_000_000;
        long sink = 0;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += table.match("/v1/orders/A-" + (i & 1023) + "/transitions", null).template().length();
            }
            long ns = (System.nanoTime() - t0) / n;
            System.out.println("[measured] route match of a transition path: " + ns + " ns (round " + round + ")");
            if (round == 2) {
                assertThat(ns).as("ns per match, path built included").isLessThan(5_000); // loose: the machine is shared (a few hundred ns when idle)
            }
        }
        assertThat(sink).isPositive();
    }
}
