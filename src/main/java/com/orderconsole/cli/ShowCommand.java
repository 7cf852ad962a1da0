package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code show --id ID}: one order, Redis next to MySQL, with its history. */
@Command(name = "show")
final class ShowCommand extends CliCommand {
    @Option(names = "--id", required = true, paramLabel = "ID", converter = Cli.OrderIdConverter.class,
            descriptionKey = "cli.opt.id")
    String id;

    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            OrderDetails d = engine.services().orders().lookup(id);
            emit(d, text(d));
            return OrderCli.OK;
        }
    }

    private static String text(OrderDetails d) {
        OrderSummary o = d.summary();
        String nl = System.lineSeparator();
        StringBuilder b = new StringBuilder();
        b.append("Order ").append(o.orderId()).append(o.customerId() == null ? "" : " (customer " + o.customerId() + ")").append(nl);
        b.append("  Redis:   ").append(o.redisStatus() == null
                ? "no state (rebuilt from MySQL on its next transition, or by reconcile --repair)"
                : o.redisStatus() + " v" + o.redisVersion()).append(nl);
        b.append("  MySQL:   ").append(o.mysqlStatus() == null ? "no row" : o.mysqlStatus() + " v" + o.mysqlVersion())
                .append(o.disagrees() ? "   <- differs from Redis" : "").append(nl);
        b.append("  created: ").append(Cli.time(o.createdAtMs())).append(", in status since ").append(Cli.time(o.statusSinceMs())).append(nl);
        b.append("  payment due: ").append(d.queueExpiryMs() == null ? "- (not in the cancel queue)" : Cli.time(d.queueExpiryMs())).append(nl);
        b.append("  allowed next: ").append(d.legalTargets().isEmpty() ? "none" : d.legalTargets().toString()).append(nl);
        b.append("History:").append(nl);
        for (HistoryEntry h : d.history()) {
            b.append(String.format("  %s  v%-3d %-9s -> %-9s %-9s by %s via %s%s%n", Cli.time(h.atMs()), h.version(),
                    h.from() == null ? "(new)" : h.from(), h.to(), h.code().applied() ? "applied" : "code " + h.code().code(),
                    h.actor(), h.source(), h.reason().isEmpty() ? "" : ": " + h.reason()));
        }
        return b.toString();
    }
}
