package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Role;
import com.orderconsole.service.client.ApiClient;
import com.orderconsole.service.client.ApiClients;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code api-client add NAME --role support|ops | list | revoke NAME}: the credentials of the services that call the HTTP
 * API of serve (issue 32). Adding and revoking are an admin's and are audited; the token is printed once.
 */
@Command(name = "api-client", subcommands = {ApiClientCommand.Add.class, ApiClientCommand.ListClients.class,
        ApiClientCommand.Revoke.class})
final class ApiClientCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), Messages.get("cli.subcommand.needed"));
    }

    @Command(name = "add")
    static final class Add extends CliCommand {
        @Parameters(index = "0", paramLabel = "NAME", descriptionKey = "cli.apiClient.param.name")
        String name;

        @Override
        public Integer call() {
            // The global --role (which elsewhere lowers the operator's role) names the client's role here: the admin adding
            // it keeps theirs.
            Role r = global().role;
            global().role = null;
            if (r != Role.SUPPORT && r != Role.OPS) {
                throw new ParameterException(spec.commandLine(), Messages.format("cli.apiClient.roleNeeded", r == null ? "-" : r.label()));
            }
            try (Engine engine = engine()) {
                ApiClients.Added a;
                try {
                    a = engine.services().apiClients().add(operator(), name, r);
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), e.getMessage());
                }
                Map<String, Object> doc = document(a.client());
                doc.put("token", a.token());
                emit(doc, Messages.format("cli.apiClient.added", name, r.label(), a.token()));
                return ExitCode.OK.code();
            }
        }
    }

    @Command(name = "list")
    static final class ListClients extends CliCommand {
        @Override
        public Integer call() {
            try (Engine engine = engine()) {
                List<ApiClient> clients = engine.services().apiClients().list(operator());
                List<Map<String, Object>> docs = new ArrayList<>();
                StringBuilder text = new StringBuilder(clients.isEmpty() ? Messages.get("cli.apiClient.none") : "");
                for (ApiClient c : clients) {
                    docs.add(document(c));
                    text.append(Messages.format("cli.apiClient.line", TextColumns.left(c.name(), 20), TextColumns.left(c.role().label(), 8),
                            Cli.time(c.addedAtMs()), c.addedBy(), c.inForce() ? Messages.get("cli.apiClient.inForce")
                                    : Messages.format("cli.apiClient.revokedAt", Cli.time(c.revokedAtMs())))).append(System.lineSeparator());
                }
                emit(Map.of("clients", docs), text.toString());
                return ExitCode.OK.code();
            }
        }
    }

    @Command(name = "revoke")
    static final class Revoke extends CliCommand {
        @Parameters(index = "0", paramLabel = "NAME", descriptionKey = "cli.apiClient.param.name")
        String name;

        @Override
        public Integer call() {
            try (Engine engine = engine()) {
                ApiClients.Revoked revoked;
                try {
                    revoked = engine.services().apiClients().revoke(operator(), name);
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), e.getMessage());
                }
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("name", name);
                doc.put("revoked", true);
                doc.put("wasInForce", revoked.wasInForce());
                doc.put("boundSeconds", ApiClients.REVOCATION_BOUND.toSeconds());
                doc.put("everyServeWithinBound", revoked.unpublished() == null);
                doc.put("notEveryServe", revoked.unpublished());
                emit(doc, revoked.unpublished() != null ? Messages.format("cli.apiClient.revokedNotEverywhere", name, revoked.unpublished())
                        : revoked.wasInForce() ? Messages.format("cli.apiClient.revoked", name, ApiClients.REVOCATION_BOUND.toSeconds())
                        : Messages.format("cli.apiClient.alreadyRevoked", name));
                return ExitCode.OK.code();
            }
        }
    }

    private static Map<String, Object> document(ApiClient c) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", c.name());
        doc.put("actor", c.operator().name());
        doc.put("role", c.role().name().toLowerCase(Locale.ROOT));
        doc.put("addedAt", Instant.ofEpochMilli(c.addedAtMs()).toString());
        doc.put("addedBy", c.addedBy());
        doc.put("revokedAt", c.revokedAtMs() == null ? null : Instant.ofEpochMilli(c.revokedAtMs()).toString());
        return doc;
    }
}
