package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.app.StoryWords;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code show --id ID}: one order, Redis next to MySQL, with its history. */
@Command(name = "show", description = {"Show one order: its Redis state next to its MySQL row, the payment deadline, the moves the rules allow now, and the full history.",
        "Exit code 1 when no store knows the order. Role: read_only."})
final class ShowCommand extends CliCommand {
    @Option(names = "--id", required = true, paramLabel = "ID", converter = Cli.OrderIdConverter.class,
            description = "order id")
    String id;

    @Option(names = "--story", description = "the order's story instead: every step and rejected attempt explained in words, "
            + "the time between steps, Redis and MySQL versions while sync is pending (with --json: the story document)")
    boolean story;

    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            if (story) {
                OrderStory st = engine.services().orders().story(id);
                if (json()) {
                    out().println(StoryWords.json(st));
                } else {
                    out().print(storyText(st));
                }
                return OrderCli.OK;
            }
            OrderDetails d = engine.services().orders().lookup(id);
            emit(d, text(d));
            return OrderCli.OK;
        }
    }

    private static String storyText(OrderStory st) {
        StringBuilder b = new StringBuilder();
        for (OrderStory.Step s : st.steps()) {
            b.append(String.format("  %s  %-22s %s%n", Cli.time(s.entry().atMs()), StoryWords.versions(s), StoryWords.step(s)));
        }
        return b.toString();
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
