package com.orderconsole.cli;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy host: while 8 CPU-bound processes share the machine's cores, CLI commands that sign in to MySQL and Redis
 * (create, transition, stats) succeed, each within a bounded time, instead of failing on a sign-in that only took longer
 * than the connect timeout.
 */
@Slow
class BusyHostCliTest {
    @Test
    void commandsSucceedWhileEightCpuBoundProcessesShareTheCores() throws Exception {
        TestServers.reset();
        List<Process> busy = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                busy.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
            }
            String[][] commands = {
                    {"create", "--id", "busy-1", "--expire-in", "30m"},
                    {"transition", "--id", "busy-1", "--to", "PAID", "--reason", "busy host"},
                    {"stats"}};
            for (String[] command : commands) {
                long t0 = System.nanoTime();
                CliRunner.Run run = cli(command);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("[measured] busy host, '" + command[0] + "': exit " + run.code() + " after " + ms + " ms");
                assertThat(run.code()).as(command[0] + ": " + run.err()).isZero();
                assertThat(ms).as(command[0] + " within a bounded time").isLessThan(120_000);
            }
        } finally {
            for (Process p : busy) {
                p.destroyForcibly();
            }
        }
    }
}
