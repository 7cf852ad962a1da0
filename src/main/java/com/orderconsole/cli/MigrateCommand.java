package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the schema migrations to an external MySQL/MariaDB, as a database administrator, after checking the
 * account's privileges; {@code --repair} runs Flyway's repair of its record instead. Needs only --jdbc (or a
 * profile naming it): migrating touches no Redis, so --redis is not asked for.
 */
@Command(name = "migrate")
final class MigrateCommand extends CliCommand {
    @Option(names = "--repair", descriptionKey = "cli.opt.migrateRepair")
    boolean repair;

    @Override
    public Integer call() {
        GlobalOptions g = global();
        String password;
        try {
            g.applyProfile();
            if (g.jdbcUrl == null) {
                throw new IllegalArgumentException(Messages.get("cli.migrate.noJdbc"));
            }
            announceEnvironment();
            password = g.password();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (repair) {
            Engine.MigrationsRepaired r = Engine.repairMigrations(g.migrationConfig(password));
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("removed", r.removed());
            doc.put("aligned", r.aligned());
            doc.put("deleted", r.deleted());
            String text = r.removed().isEmpty() && r.aligned().isEmpty() && r.deleted().isEmpty()
                    ? Messages.get("cli.migrate.repairedNothing")
                    : Messages.format("cli.migrate.repaired", words(r.removed()), words(r.aligned()), words(r.deleted()));
            emit(doc, text + System.lineSeparator());
            return ExitCode.OK.code();
        }
        Engine.Migrated m = Engine.migrate(g.migrationConfig(password));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("applied", m.applied());
        doc.put("version", m.version());
        emit(doc, Messages.format("cli.migrate.done", m.applied(), m.version()) + System.lineSeparator());
        return ExitCode.OK.code();
    }

    private static String words(List<String> migrations) {
        return migrations.isEmpty() ? Messages.get("cli.migrate.none") : String.join(", ", migrations);
    }
}
