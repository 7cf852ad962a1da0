package com.orderconsole.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.FreshEngine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.Services;
import com.orderconsole.service.rules.RulesWhatIfTest;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/** The CLI side of issue 13.3-13.5: rules set --dry-run (what-if), show --story, rules export. */
class StoryCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    @Test
    void rulesSetDryRunShowsTheStrandedOrdersAndStoresNothing(@TempDir Path dir) throws Exception {
        s.orders().create(support, "w1", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("w1", OrderStatus.PAID, "t", ""));
        s.transitions().transition(support, TransitionRequest.of("w1", OrderStatus.WAIT_SHIP, "t", ""));
        s.follower().drainOnce();
        Path file = dir.resolve("strand.json");
        Files.writeString(file, RulesWhatIfTest.STRANDS_WAIT_SHIP);

        Run text = cli("rules", "set", file.toString(), "--dry-run", "--role", "read_only");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("makes WAIT_SHIP terminal").contains("removes WAIT_SHIP → SHIPPED")
                .contains("WAIT_SHIP loses every exit: its 1 live order (0 of them stuck) would stay there for good (e.g. w1)")
                .contains("WAIT_PAY → CANCELLED stays").contains("Dry run: nothing was stored.");

        JsonNode j = cli("rules", "set", file.toString(), "--dry-run", "--json").json();
        assertThat(j.get("dryRun").asBoolean()).isTrue();
        assertThat(j.get("stranded").asLong()).isEqualTo(1);
        assertThat(j.get("statuses").get(0).get("status").asText()).isEqualTo("WAIT_SHIP");
        assertThat(j.get("statuses").get(0).get("sample").get(0).asText()).isEqualTo("w1");
        assertThat(s.rules().current().version()).as("a dry run stores nothing").isEqualTo(1);
    }

    @Test
    void showStoryPrintsTheStoryAndItsJsonAndAnUnknownIdIsAClearError() {
        s.orders().create(support, "cs-1", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("cs-1", OrderStatus.PAID, "cli", "callback"));
        s.transitions().transition(support, TransitionRequest.of("cs-1", OrderStatus.PAID, "cli", "callback again"));
        s.follower().drainOnce();

        Run text = cli("show", "--id", "cs-1", "--story");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("created as WAIT_PAY by alice via create").contains("Redis v2 · MySQL v2")
                .contains("rejected, the order was already PAID");
        JsonNode j = cli("show", "--id", "cs-1", "--story", "--json").json();
        assertThat(j.get("steps")).hasSize(3);
        assertThat(j.get("steps").get(2).get("result").asText()).isEqualTo("ALREADY_IN_STATUS");

        Run unknown = cli("show", "--id", "nope-1", "--story", "--json");
        assertThat(unknown.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(unknown.json().get("error").get("message").asText()).contains("nope-1").contains("not found");
    }

    @Test
    void rulesExportWritesPlantUmlMermaidAndAHeadlessPngAndRefusesTheRest(@TempDir Path dir) throws Exception {
        Run puml = cli("rules", "export", "--format", "plantuml");
        assertThat(puml.code()).as(puml.err()).isZero();
        assertThat(puml.out()).startsWith("@startuml").contains("WAIT_PAY --> CANCELLED : 0 /h").contains("@enduml");
        Run bare = cli("rules", "export", "--format", "MERMAID", "--no-counts");
        assertThat(bare.out()).contains("stateDiagram-v2").contains("    PAID --> WAIT_SHIP\n").doesNotContain("/h");

        Path png = dir.resolve("graph.png");
        JsonNode j = cli("rules", "export", "--format", "png", "--out", png.toString(), "--json").json();
        assertThat(j.get("file").asText()).isEqualTo(png.toString());
        assertThat(javax.imageio.ImageIO.read(png.toFile())).as("a readable PNG, drawn without a display").isNotNull();

        Run noOut = cli("rules", "export", "--format", "png");
        assertThat(noOut.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(noOut.err()).contains("add --out FILE");
        Run svg = cli("rules", "export", "--format", "svg");
        assertThat(svg.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(svg.err()).contains("unknown diagram format \"svg\"");
    }
}
