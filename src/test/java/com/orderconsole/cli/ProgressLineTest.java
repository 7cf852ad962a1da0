package com.orderconsole.cli;

import com.orderconsole.app.ProgressThrottle;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The one progress line the import, reconcile and bulk commands draw on stderr at a terminal. */
class ProgressLineTest {
    @Test
    void drawsTheFirstReportOverTheLineSkipsThoseNotDueWithoutBuildingTheirTextAndAlwaysDrawsTheLast() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // An hour apart: within this test only the first and the finished report are due, whatever the machine's pace.
        CliCommand.ProgressLine line = new CliCommand.ProgressLine(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new ProgressThrottle(3_600_000));
        AtomicInteger built = new AtomicInteger();

        line.draw(false, () -> "read 1,000 of 3,000");
        line.draw(false, () -> {
            built.incrementAndGet();
            return "read 2,000 of 3,000";
        });
        line.draw(true, () -> "read 3,000 of 3,000");

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\rread 1,000 of 3,000\rread 3,000 of 3,000");
        assertThat(built).as("the text of a report not drawn is never built").hasValue(0);
    }
}
