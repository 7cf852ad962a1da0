package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.transition.TransitionOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code transition --id ID --to STATUS}: one move through the transition script; {@code --override} (admin, with
 * {@code --reason}) moves along no rule.
 */
@Command(name = "transition")
final class TransitionCommand extends CliCommand {
    /** Source written to the history of CLI transitions. */
    static final String SOURCE = "cli";

    @Option(names = "--id", required = true, paramLabel = "ID", converter = Converters.OrderIdConverter.class,
            descriptionKey = "cli.opt.id")
    String id;

    @Option(names = "--to", required = true, paramLabel = "STATUS", converter = Converters.StatusConverter.class,
            descriptionKey = "cli.opt.to")
    OrderStatus to;

    @Option(names = "--actor", paramLabel = "NAME", descriptionKey = "cli.opt.actor")
    String actor;

    @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "cli.opt.reason")
    String reason;

    @Option(names = "--override", descriptionKey = "cli.opt.override")
    boolean override;

    @Option(names = "--expect-version", paramLabel = "N", converter = Converters.PositiveLongConverter.class, descriptionKey = "cli.opt.expect-version")
    Long expectVersion;

    @Override
    public Integer call() {
        if (override && (reason == null || reason.isBlank())) {
            // As the console: a forced move is in the history with why, or it is not made.
            throw new ParameterException(spec.commandLine(), Messages.get("cli.transition.overrideNeedsReason"));
        }
        TransitionRequest request;
        try {
            request = new TransitionRequest(id, to, expectVersion, SOURCE, reason, override);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try (Session<ConsoleServices> session = session(actor)) {
            ConsoleServices s = session.services();
            if (override) {
                confirm(ProductionGuard.Action.OVERRIDE, 1, Messages.format("cli.transition.what", id, to.name()));
            }
            TransitionOutcome outcome = s.transitions().transitionAndWait(operator(), request, SYNC_WAIT);
            TransitionResult r = outcome.result();
            if (r.code() == ResultCode.STATE_MISSING) {
                // The service already tried to rebuild the state from MySQL: neither store knows the order.
                throw new OrderNotFoundException(id);
            }
            boolean synced = outcome.mysql() == null || reportCatchUp(s, outcome.mysql());
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("orderId", r.orderId());
            doc.put("applied", r.applied());
            doc.put("code", r.code().code());
            doc.put("result", r.code());
            doc.put("description", r.code().description());
            doc.put("from", r.from());
            doc.put("to", r.target());
            doc.put("version", r.version());
            doc.put("atMs", r.timeMs());
            doc.put("mysqlSynced", synced);
            String text = (r.applied()
                    ? Messages.format("cli.transition.applied", id, r.from(), r.target(), r.version())
                    : r.code() == ResultCode.RESTORING
                    ? Messages.format("cli.transition.restoring", id, r.target(), r.code().code(), Messages.get("result." + r.code().name()))
                    : r.from() == null // the record could not be read (malformed): there is no status to name
                    ? Messages.format("cli.transition.rejectedUnread", id, r.target(), r.code().code(), Messages.get("result." + r.code().name()))
                    : Messages.format("cli.transition.rejected", id, r.from(), r.target(), r.code().code(),
                    Messages.get("result." + r.code().name()), r.version())) + System.lineSeparator();
            emit(doc, text);
            return r.applied() ? ExitCode.OK.code() : ExitCode.REJECTED.code();
        }
    }
}
