package com.orderconsole.cli;

import com.orderconsole.app.DeadLetterWords;
import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.deadletter.DeadLetter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code dead-letters}: the records set aside because they could not be processed; retry or discard one. */
@Command(name = "dead-letters")
final class DeadLettersCommand extends CliCommand {
    @Option(names = "--retry", paramLabel = "ID", converter = Converters.PositiveLongConverter.class, descriptionKey = "cli.opt.retry")
    Long retry;

    @Option(names = "--discard", paramLabel = "ID", converter = Converters.PositiveLongConverter.class, descriptionKey = "cli.opt.discard")
    Long discard;

    @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "cli.opt.reason.discard")
    String reason;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", descriptionKey = "cli.opt.limit")
    int limit;

    /** The dead-letter service's own cap on one listing. */
    private static final int MAX_LIMIT = 10_000;

    @Override
    public Integer call() {
        if (retry != null && discard != null) {
            throw new ParameterException(spec.commandLine(), Messages.get("cli.deadletters.both"));
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ParameterException(spec.commandLine(), Messages.format("cli.deadletters.badLimit", limit, MAX_LIMIT));
        }
        if (discard != null && (reason == null || reason.isBlank())) {
            throw new ParameterException(spec.commandLine(), Messages.get("cli.deadletters.noReason"));
        }
        try (Session<ConsoleServices> session = session()) {
            ConsoleServices s = session.services();
            if (retry != null || discard != null) {
                confirm(ProductionGuard.Action.DEAD_LETTER, 1, Messages.format(retry != null ? "cli.deadletters.what.retry"
                        : "cli.deadletters.what.discard", retry != null ? retry : discard));
                DeadLetter d = retry != null ? s.deadLetters().retry(operator(), retry)
                        : s.deadLetters().discard(operator(), discard, reason);
                String closed = "RETRIED".equals(d.state()) ? "cli.deadletters.retried" : "cli.deadletters.discarded"; // i18n-ok: keys
                emit(d, Messages.format(closed, d.id(), d.resolvedBy(), d.resolution()) + System.lineSeparator());
                return ExitCode.OK.code();
            }
            List<DeadLetter> open = s.deadLetters().open(limit);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("open", s.deadLetters().countOpen());
            doc.put("letters", open);
            StringBuilder text = new StringBuilder((open.isEmpty() ? Messages.get("cli.deadletters.none")
                    : Messages.format("cli.deadletters.open", open.size())) + System.lineSeparator());
            for (DeadLetter d : open) {
                String nl = System.lineSeparator();
                text.append(Messages.format(d.entryId() == null ? "cli.deadletters.letter" : "cli.deadletters.letter.entry", d.id(),
                        Cli.time(d.createdAtMs()), DeadLetterWords.kind(d.kind()), d.orderId() == null ? "?" : d.orderId(),
                        d.bucket() == null ? "?" : d.bucket(), d.entryId())).append(nl)
                        .append("      ").append(d.reason()).append(nl)
                        .append(Messages.format("cli.deadletters.found", d.body())).append(nl);
            }
            emit(doc, text.toString());
            return ExitCode.OK.code();
        }
    }
}
