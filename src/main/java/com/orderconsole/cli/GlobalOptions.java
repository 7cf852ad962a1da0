package com.orderconsole.cli;

import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Options every subcommand accepts (inherited from the top command): where the servers are, who acts,
 * and the output format. Holds the output streams of the run.
 */
class GlobalOptions {
    final PrintStream out;
    final PrintStream err;

    @Option(scope = ScopeType.INHERIT, names = "--redis", paramLabel = "URI", description = "Redis URI, e.g. "
            + "redis://host:6379/0 (default: embedded Redis)")
    String redisUri;

    @Option(scope = ScopeType.INHERIT, names = "--jdbc", paramLabel = "URL", description = "JDBC URL of the orders "
            + "schema, e.g. jdbc:mysql://host:3306/orders (default: embedded MariaDB)")
    String jdbcUrl;

    @Option(scope = ScopeType.INHERIT, names = "--db-user", paramLabel = "NAME", description = "database user "
            + "(default: root)")
    String dbUser;

    @Option(scope = ScopeType.INHERIT, names = "--db-password-env", paramLabel = "VAR", description = "read the "
            + "database password from this environment variable (never printed)")
    String dbPasswordEnv;

    @Option(scope = ScopeType.INHERIT, names = "--data-dir", paramLabel = "DIR", description = "data directory of "
            + "the embedded servers (default: ${sys:order-console.default-data-dir})")
    Path dataDir;

    @Option(scope = ScopeType.INHERIT, names = "--json", description = "print one JSON document on stdout instead of "
            + "text")
    boolean json;

    @Option(scope = ScopeType.INHERIT, names = "--operator", paramLabel = "NAME", description = "who acts, written "
            + "to the history (default: your user name)")
    String operatorName;

    @Option(scope = ScopeType.INHERIT, names = "--role", paramLabel = "ROLE", converter = Cli.RoleConverter.class,
            description = "role of the operator: read_only, support, ops or admin (default: ops)")
    Role role = Role.OPS;

    GlobalOptions(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * @param nameOverride a name to act under instead of --operator (e.g. transition --actor), or null
     * @return the operator of this run
     * @throws IllegalArgumentException when the name is not 1-64 printable characters
     */
    Operator operator(String nameOverride) {
        String name = nameOverride != null ? nameOverride : operatorName != null ? operatorName : System.getProperty("user.name", "cli");
        return new Operator(name, role);
    }

    /**
     * @return the database password: the value of the --db-password-env variable, else empty
     * @throws IllegalArgumentException naming the variable when it is not set
     */
    String password() {
        if (dbPasswordEnv == null) {
            return "";
        }
        String password = System.getenv(dbPasswordEnv);
        if (password == null) {
            throw new IllegalArgumentException("environment variable " + dbPasswordEnv + " (from --db-password-env) is not set");
        }
        return password;
    }

    /**
     * The engine configuration of one command: no background jobs (commands that need the sweeper or
     * the MySQL follower run them once themselves); embedded servers unless --redis/--jdbc are given.
     *
     * @param password the database password (see {@link #password()})
     */
    EngineConfig config(String password) {
        EngineConfig config = EngineConfig.embeddedDefault().withBackgroundJobs(null, null);
        if (dataDir != null) {
            config = config.withDataDir(dataDir.toAbsolutePath());
        }
        if (redisUri != null && jdbcUrl == null || redisUri == null && jdbcUrl != null) {
            throw new IllegalArgumentException((redisUri != null ? "--redis was given without --jdbc" : "--jdbc was given without --redis")
                    + ": give both (external servers) or neither (the embedded servers of the data directory); "
                    + "one external server beside an embedded one would split the system");
        }
        if (redisUri != null) {
            config = config.withServers(redisUri, jdbcUrl, dbUser != null ? dbUser : config.dbUser(), password);
        }
        return config;
    }
}
