package com.orderconsole.app.remote;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.rules.RulesJson;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every call the console's core pages make, in remote mode, on one order: the orders table, the order's detail and story,
 * a move, the state graph, the Monitor page, the rules page with its what-if, the status bar and the alerts. Run by
 * {@link RemoteOpensNoStoreTest} in a class loader of its own, so what it loads is seen; it names nothing of a store.
 */
public final class RemotePagesTour {
    private RemotePagesTour() {
    }

    /**
     * @param base serve's address
     * @param token an access token of an ops person
     * @param orderId an order in WAIT_PAY
     * @return one line per page, to show the calls answered
     */
    public static List<String> run(String base, String token, String orderId) {
        AccessTokens tokens = new AccessTokens() {
            @Override
            public String current() {
                return token;
            }

            @Override
            public void rejected(String t) {
            }

            @Override
            public void signOut() {
            }
        };
        RemoteServices s = new RemoteServices(URI.create(base), tokens);
        Operator who = new Operator("tour", Role.OPS);
        List<String> seen = new ArrayList<>();
        seen.add("me " + s.whoAmI().describe());
        seen.add("orders " + s.orders().page(new OrderQuery(null, null, Set.of(OrderStatus.WAIT_PAY), false, null, null, false, false),
                null, 100).rows().size());
        seen.add("detail " + s.orders().lookup(orderId).summary().status());
        seen.add("move " + s.transitions().transitionAndWait(who, TransitionRequest.of(orderId, OrderStatus.PAID, "console", "tour"),
                Duration.ofSeconds(20)).result().code());
        seen.add("story " + s.orders().story(orderId).steps().size());
        seen.add("graph " + s.monitor().stateCounts().live() + " " + s.monitor().transitionsLastHour() + " "
                + s.stuckThresholds().all().size());
        seen.add("monitor " + s.monitor().resultCounts().size() + " " + s.monitor().perMinute(Duration.ofHours(1)).size());
        String rules = RulesJson.write(s.rules().current());
        seen.add("rules " + s.rules().validate(rules).version() + " " + s.rulesWhatIf().whatIf(rules).harmful());
        seen.add("status " + s.health().check().mysqlUp() + " " + s.mysqlSync().status().pending());
        seen.add("alerts " + s.alerts().checkAlerts().size());
        return seen;
    }
}
