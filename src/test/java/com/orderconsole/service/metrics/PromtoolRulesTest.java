package com.orderconsole.service.metrics;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped alert rules evaluated, not only parsed: {@code promtool test rules} runs the cases of
 * {@code docs/prometheus/orderconsole-alerts.test.yml} (each rule fires on the series it must, stays quiet on the others,
 * with the summary a person reads). promtool comes from Debian's prometheus package: on PATH, or unpacked into
 * {@code target/promtool} by {@code .ci/run}; the test is skipped only where neither is there.
 */
class PromtoolRulesTest {
    private static final Path DIR = Path.of("docs/prometheus");

    /** @return promtool: the system property {@code promtool}, PATH, or target/promtool/usr/bin; null when none */
    static Path promtool() {
        Stream<Path> candidates = Stream.concat(Stream.of(System.getProperty("promtool", "")).filter(p -> !p.isBlank()).map(Path::of),
                Stream.concat(Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                        .filter(p -> !p.isBlank()).map(p -> Path.of(p, "promtool")), Stream.of(Path.of("target/promtool/usr/bin/promtool"))));
        return candidates.filter(Files::isExecutable).findFirst().orElse(null);
    }

    private static String run(Path promtool, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(promtool.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(DIR.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void everyRuleFiresOnItsCasesAndStaysQuietOnTheOthers() throws Exception {
        Path promtool = promtool();
        Assumptions.assumeTrue(promtool != null, "promtool is not installed (.ci/run unpacks it into target/promtool)");

        assertThat(run(promtool, "check", "rules", "orderconsole-alerts.yml")).contains("SUCCESS");
        assertThat(run(promtool, "test", "rules", "orderconsole-alerts.test.yml")).contains("SUCCESS");
    }
}
