package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.service.Services;
import com.orderconsole.service.follower.FollowerStatus;
import picocli.CommandLine.Command;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code follower}: runs the MySQL follower once: applies the Redis outbox to MySQL now. */
@Command(name = "follower")
final class FollowerCommand extends CliCommand {
    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            Services s = engine.services();
            int applied = s.follower().runOnce(operator());
            FollowerStatus st = s.follower().status();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("applied", applied);
            doc.put("pending", st.pending());
            doc.put("oldestPendingAgeMs", st.oldestPendingAgeMs());
            emit(doc, Messages.format("cli.follower.done", applied, st.pending()) + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }
}
