package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.service.Services;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code sweep --once}: one pass of the cancel sweeper. */
@Command(name = "sweep")
final class SweepCommand extends CliCommand {
    @Option(names = "--once", required = true, descriptionKey = "cli.opt.once")
    boolean once;

    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            Services s = engine.services();
            boolean paused = s.sweeper().status().paused();
            int cancelled = s.sweeper().sweepNow(operator());
            boolean synced = catchUpMySql(s);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("cancelled", cancelled);
            doc.put("paused", paused);
            doc.put("mysqlSynced", synced);
            emit(doc, (paused ? Messages.get("cli.sweep.paused") : Messages.format("cli.sweep.done", cancelled))
                    + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }
}
