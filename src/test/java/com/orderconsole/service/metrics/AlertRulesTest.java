package com.orderconsole.service.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.orderconsole.FreshEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example Prometheus rules shipped in docs/prometheus (docs/ops-guide.md, "Monitoring") parse as Prometheus rule groups, name
 * only metrics the endpoint exposes, and match the console's four alerts at its default thresholds.
 */
class AlertRulesTest {
    private static final Path RULES = Path.of("docs/prometheus/orderconsole-alerts.yml");
    @RegisterExtension
    final FreshEngine fresh = new FreshEngine();

    @Test
    void theShippedRulesParseNameOnlyExposedMetricsAndMatchTheConsolesAlerts() throws Exception {
        JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        Set<String> exposed = new TreeSet<>();
        for (String line : fresh.services().metrics().scrape().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                exposed.add(line.split("[{ ]", 2)[0]);
            }
        }
        Map<String, String> exprByAlert = new HashMap<>();
        Pattern metric = Pattern.compile("\\borderconsole_[a-z_]+");
        for (JsonNode group : doc.get("groups")) {
            assertThat(group.get("name").asText()).isNotBlank();
            for (JsonNode rule : group.get("rules")) {
                String name = rule.get("alert").asText();
                String expr = rule.get("expr").asText();
                assertThat(rule.at("/labels/severity").asText()).as(name).isIn("page", "warning", "info");
                assertThat(rule.at("/annotations/summary").asText()).as(name).isNotBlank();
                Matcher m = metric.matcher(expr);
                int named = 0;
                while (m.find()) {
                    named++;
                    assertThat(exposed).as(name + " names " + m.group()).contains(m.group());
                }
                assertThat(named).as(name + " names a metric of the console").isPositive();
                // promtool test rules (PromtoolRulesTest) has cases for every rule
                assertThat(Files.readString(RULES.resolveSibling("orderconsole-alerts.test.yml"))).as(name + " has test cases")
                        .contains("alertname: " + name);
                exprByAlert.put(name, expr);
            }
        }
        Alerts.Thresholds d = Alerts.Thresholds.DEFAULT;
        assertThat(exprByAlert.get("OrderConsoleSyncLag")).isEqualTo("orderconsole_sync_lag_seconds > " + (int) d.syncLagSeconds());
        assertThat(exprByAlert.get("OrderConsoleOverdueUnpaidOrder"))
                .isEqualTo("orderconsole_queue_oldest_overdue_seconds > " + (int) d.oldestOverdueSeconds());
        assertThat(exprByAlert.get("OrderConsoleRejectionRate")).contains("> " + d.rejectionRate()).contains(">= " + d.minAttempts())
                .contains("[" + d.windowMs() / 60_000 + "m]");
        assertThat(exprByAlert.get("OrderConsoleSweeperStalled"))
                .startsWith("orderconsole_sweeper_tick_age_seconds > " + (int) d.sweeperSilentSeconds()).contains("orderconsole_sweeper_paused == 0");
    }
}
