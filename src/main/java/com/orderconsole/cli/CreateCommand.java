package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderState;
import com.orderconsole.app.ConsoleServices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code create --id ID [--expire-in DURATION]}: a new order in WAIT_PAY with a payment deadline. */
@Command(name = "create")
final class CreateCommand extends CliCommand {
    @Option(names = "--id", required = true, paramLabel = "ID", converter = Converters.OrderIdConverter.class,
            descriptionKey = "cli.opt.id.new")
    String id;

    @Option(names = "--expire-in", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            descriptionKey = "cli.opt.expire-in")
    Duration expireIn;

    @Option(names = "--customer", paramLabel = "ID", converter = Converters.OrderIdConverter.class, descriptionKey = "cli.opt.customer")
    String customer;

    @Override
    public Integer call() {
        try (Session<ConsoleServices> session = session()) {
            var op = operator();
            ConsoleServices s = session.services();
            Duration timeout = expireIn != null ? expireIn : s.paymentTimeout();
            OrderState st = s.orders().create(op, id, customer, timeout);
            long expireAt = st.createTimeMs() + timeout.toMillis();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("orderId", st.orderId());
            doc.put("status", st.status());
            doc.put("version", st.version());
            doc.put("createdAtMs", st.createTimeMs());
            doc.put("expireAtMs", expireAt);
            emit(doc, Messages.format("cli.create.done", st.orderId(), st.status(), st.version(), Cli.time(expireAt))
                    + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }
}
