package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Applies the schema migrations to an external MySQL/MariaDB, as a database administrator. Needs only
 * --jdbc (or a profile naming it): migrating touches no Redis, so --redis is not asked for.
 */
@Command(name = "migrate")
final class MigrateCommand extends CliCommand {
    @Override
    public Integer call() {
        GlobalOptions g = global();
        String password;
        try {
            g.applyProfile();
            if (g.jdbcUrl == null) {
                throw new IllegalArgumentException(Messages.get("cli.migrate.noJdbc"));
            }
            password = g.password();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Engine.Migrated m = Engine.migrate(g.migrationConfig(password));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("applied", m.applied());
        doc.put("version", m.version());
        emit(doc, Messages.format("cli.migrate.done", m.applied(), m.version()) + System.lineSeparator());
        return ExitCode.OK.code();
    }
}
