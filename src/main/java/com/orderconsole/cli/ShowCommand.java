package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.app.StoryWords;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code show --id ID}: one order, Redis next to MySQL, with its history. */
@Command(name = "show")
final class ShowCommand extends CliCommand {
    @Option(names = "--id", required = true, paramLabel = "ID", converter = Converters.OrderIdConverter.class,
            descriptionKey = "cli.opt.id")
    String id;

    @Option(names = "--story", descriptionKey = "cli.opt.story")
    boolean story;

    @Override
    public Integer call() {
        try (Session<ConsoleServices> session = session()) {
            if (story) {
                OrderStory st = session.services().orders().story(id);
                if (json()) {
                    out().println(StoryWords.json(st));
                } else {
                    out().print(storyText(st));
                }
                return ExitCode.OK.code();
            }
            OrderDetails d = session.services().orders().lookup(id);
            emit(d, text(d));
            return ExitCode.OK.code();
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
        b.append(o.customerId() == null ? Messages.format("cli.show.order", o.orderId())
                : Messages.format("cli.show.order.customer", o.orderId(), o.customerId())).append(nl);
        b.append(Messages.format("cli.show.redis", o.redisStatus() == null ? Messages.get("cli.show.redis.none")
                : o.redisStatus() + " v" + o.redisVersion())).append(nl);
        b.append(Messages.format("cli.show.mysql", o.mysqlStatus() == null ? Messages.get("cli.show.mysql.none")
                : o.mysqlStatus() + " v" + o.mysqlVersion())).append(o.disagrees() ? Messages.get("cli.show.differs") : "").append(nl);
        b.append(Messages.format("cli.show.created", Cli.time(o.createdAtMs()), Cli.time(o.statusSinceMs()))).append(nl);
        b.append(Messages.format("cli.show.due", d.queueExpiryMs() == null ? Messages.get("cli.show.due.none")
                : Cli.time(d.queueExpiryMs()))).append(nl);
        b.append(Messages.format("cli.show.next", d.legalTargets().isEmpty() ? Messages.get("cli.show.next.none")
                : d.legalTargets().toString())).append(nl);
        b.append(Messages.get("cli.show.history")).append(nl);
        for (HistoryEntry h : d.history()) {
            b.append(line(h, ""));
        }
        for (HistoryEntry h : d.pending()) {
            b.append(line(h, "  " + Messages.get("story.pending")));
        }
        return b.toString();
    }

    private static String line(HistoryEntry h, String tail) {
        return String.format("  %s  v%-3d %-9s -> %-9s %-9s %s%s%n", Cli.time(h.atMs()), h.version(),
                h.from() == null ? Messages.get("cli.show.new") : h.from(), h.to(),
                h.code().applied() ? Messages.get("cli.show.applied") : Messages.format("cli.show.code", h.code().code()),
                Messages.format(h.reason().isEmpty() ? "cli.show.by" : "cli.show.byWhy", h.actor(), h.source(), h.reason()), tail);
    }
}
