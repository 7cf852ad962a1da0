package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static com.orderconsole.cli.CliRunner.cli;
import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 34, the command line as a script writer and an on-call engineer meet it: "did you mean" for a mistyped command or
 * option, {@code help COMMAND} shows help and runs nothing, a malformed {@code --yes} is a usage error, the environment
 * on stderr's first line, progress decided by whether stderr is a terminal.
 */
class CliHabitsTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @BeforeEach
    void inEnglish() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void aMistypedCommandOrOptionGetsTheNearestNames() {
        CliRunner.Run command = raw("trasition", "--id", "x", "--to", "PAID");
        assertThat(command.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(command.err()).contains("Did you mean: transition");

        CliRunner.Run option = raw("transition", "--id", "x", "--to", "PAID", "--reson", "late");
        assertThat(option.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(option.err()).contains("Did you mean: --reason");
    }

    /**
     * A wrong API address or port is a usage error before anything starts (issue 32 trial: the embedded servers started
     * for 20 s first, then "cannot serve the API on nonsense:18081: UnresolvedAddressException"); a port prints unformatted.
     */
    @Test
    void serveRefusesABadApiAddressOrPortBeforeStarting() {
        CliRunner.Run bind = cli("serve", "--api-port", "18081", "--api-bind", "no such host.invalid");
        assertThat(bind.code()).as(bind.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(bind.err()).contains("--api-bind takes an address of this host").doesNotContain("Exception");
        CliRunner.Run same = cli("serve", "--api-port", "19464", "--metrics-port", "19464");
        assertThat(same.code()).as(same.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(same.err()).contains("--api-port and --metrics-port are both 19464");
        CliRunner.Run port = cli("serve", "--api-port", "99999");
        assertThat(port.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(port.err()).contains("--api-port 99999 is not a port");
    }

    @Test
    void helpOfACommandShowsItsUsageAndRunsNothing() {
        engine.services().orders().create(new Operator("setup", Role.OPS), "h-1", null, Duration.ofMinutes(30));

        CliRunner.Run help = cli("help", "transition");
        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).contains("Usage: order-console transition").contains("--to");
        assertThat(engine.services().orders().lookup("h-1").summary().redisVersion()).as("nothing moved").isEqualTo(1);

        CliRunner.Run top = raw("--help");
        assertThat(top.out()).contains("help");
    }

    @Test
    void aMalformedYesIsAUsageErrorNotARefusal() {
        for (String bad : List.of("--yes=abc", "--yes=-3", "--yes=1.5")) {
            CliRunner.Run r = cli("transition", "--id", "y-1", "--to", "PAID", bad);
            assertThat(r.code()).as(bad + ": " + r.err()).isEqualTo(ExitCode.USAGE.code());
            assertThat(r.err()).contains("--yes takes the count you confirm");
        }
        CliRunner.Run json = cli("transition", "--id", "y-1", "--to", "PAID", "--yes=abc", "--json");
        assertThat(json.json().get("error").get("kind").asText()).isEqualTo("usage");
    }

    @Test
    void everyCommandNamesItsEnvironmentOnStderrsFirstLineAndStdoutStaysOneDocument() {
        CliRunner.Run r = cli("stats", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err().lines().findFirst()).hasValue("[local] local · stats");
        r.json(); // stdout is exactly the document

        CliRunner.Run show = cli("show", "--id", "nobody");
        assertThat(show.err().lines().findFirst()).hasValue("[local] local · show");

        CliRunner.Run queue = cli("queue", "show");
        assertThat(queue.err().lines().findFirst()).as("a subcommand's whole name").hasValue("[local] local · queue show");

        CliRunner.Run migrate = cli("migrate");
        assertThat(migrate.err().lines().findFirst()).hasValue("[local] local · migrate");
    }

    @Test
    void progressIsDrawnWhenStderrIsATerminalWhateverStdoutIs(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,"
                + "order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date\n"
                + "pg-1,c1,shipped,2018-06-04 16:44:48,2018-06-05 04:31:18,2018-06-05 14:32:00,,2018-06-28 00:00:00\n");

        Run terminal = run(true, "import", "--csv", csv.toString(), "--json");
        assertThat(terminal.err()).as("stderr at a terminal: the progress line, --json or not").contains("importing: 1 of 1 row");
        assertThat(terminal.out()).doesNotContain("importing:");

        Run piped = run(false, "import", "--csv", csv.toString());
        assertThat(piped.err()).as("2>log: no progress in the log").doesNotContain("importing:");
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(boolean errIsTerminal, String... args) {
        EngineConfig c = TestServers.config();
        List<String> all = new ArrayList<>(List.of("--redis", c.redisUri(), "--jdbc", c.jdbcUrl(), "--db-user", "root"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), errIsTerminal);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
