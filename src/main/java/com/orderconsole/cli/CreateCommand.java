package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.domain.OrderState;
import com.orderconsole.service.Services;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code create --id ID [--expire-in DURATION]}: a new order in WAIT_PAY with a payment deadline. */
@Command(name = "create", description = {"Create an order in WAIT_PAY.",
        "Unless it is paid within --expire-in, the cancel sweeper cancels it. Role: support."})
final class CreateCommand extends CliCommand {
    @Option(names = "--id", required = true, paramLabel = "ID", converter = Cli.OrderIdConverter.class,
            description = "order id: 1-64 letters, digits, '_' or '-'")
    String id;

    @Option(names = "--expire-in", paramLabel = "DURATION", converter = Cli.DurationConverter.class,
            description = "time allowed for payment: 30m, 2h, 90s, 1h30m or ISO-8601 such as PT30M (default: 30m)")
    Duration expireIn;

    @Option(names = "--customer", paramLabel = "ID", converter = Cli.OrderIdConverter.class, description = "customer "
            + "id (optional)")
    String customer;

    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            var op = operator();
            Services s = engine.services();
            Duration timeout = expireIn != null ? expireIn : s.paymentTimeout();
            OrderState st = s.orders().create(op, id, customer, timeout);
            long expireAt = st.createTimeMs() + timeout.toMillis();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("orderId", st.orderId());
            doc.put("status", st.status());
            doc.put("version", st.version());
            doc.put("createdAtMs", st.createTimeMs());
            doc.put("expireAtMs", expireAt);
            emit(doc, "Created order " + st.orderId() + ": " + st.status() + " v" + st.version() + ", payment due by "
                    + Cli.time(expireAt) + System.lineSeparator());
            return OrderCli.OK;
        }
    }
}
