package com.orderconsole.cli;

import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Engine;
import com.orderconsole.app.LogFiles;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Termination;
import com.orderconsole.domain.Role;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.identity.OidcSettings;
import com.orderconsole.service.identity.OidcVerifier;
import com.orderconsole.app.Services;
import com.orderconsole.service.metrics.Alert;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code serve}: what a server runs, with no window: the cancel sweeper, the MySQL follower and
 * maintenance, the metrics endpoint in Prometheus text format (loopback unless {@code --metrics-bind} says another
 * address), and the alert thresholds checked every 5 s, Redis or MySQL not answering among them (logged at WARN when an
 * incident begins, INFO when it clears). Logs to
 * stderr and to the data directory's log file. Stops in order on SIGTERM or Ctrl+C and exits 0.
 */
@Command(name = "serve")
final class ServeCommand extends CliCommand {
    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);
    /** How often the alert thresholds are checked. */
    static final Duration ALERT_PERIOD = Duration.ofSeconds(5);

    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "9464", descriptionKey = "cli.serve.option.port")
    int port;

    /** Where the metrics endpoint listens: loopback unless a Prometheus on another host must reach it. */
    @Option(names = "--metrics-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", descriptionKey = "cli.serve.option.bind")
    String bind;

    @Option(names = "--api-port", paramLabel = "PORT", descriptionKey = "cli.serve.option.apiPort")
    Integer apiPort;

    @Option(names = "--api-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", descriptionKey = "cli.serve.option.apiBind")
    String apiBind;

    @Option(names = "--oidc-issuer", paramLabel = "URL", descriptionKey = "cli.serve.option.oidcIssuer")
    String oidcIssuer;

    @Option(names = "--oidc-audience", paramLabel = "AUD", descriptionKey = "cli.serve.option.oidcAudience")
    String oidcAudience;

    @Option(names = "--oidc-role-claim", paramLabel = "CLAIM", descriptionKey = "cli.serve.option.oidcRoleClaim")
    String oidcRoleClaim;

    @Option(names = "--oidc-role-map", paramLabel = "GROUP=ROLE,...", descriptionKey = "cli.serve.option.oidcRoleMap")
    String oidcRoleMap;

    @Option(names = "--reconcile-every", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            descriptionKey = "cli.serve.option.reconcile")
    Duration reconcileEvery;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.format("cli.serve.badPort", port));
        }
        java.net.InetAddress bindAddress;
        try {
            bindAddress = java.net.InetAddress.getByName(bind.strip());
        } catch (java.net.UnknownHostException | SecurityException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.format("cli.serve.badBind", bind));
        }
        if (apiPort != null && (apiPort < 0 || apiPort > 65535)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.format("cli.serve.badApiPort", apiPort));
        }
        // Checked before the engine starts (its embedded servers take seconds): a bad address or a port given twice is a
        // usage error, not a failure after start-up.
        if (apiPort != null) {
            try {
                java.net.InetAddress.getByName(apiBind.strip());
            } catch (java.net.UnknownHostException | SecurityException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.format("cli.serve.badApiBind", apiBind));
            }
            if (apiPort != 0 && apiPort == port) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.format("cli.serve.samePort", port));
            }
        }
        OidcSettings oidc = oidcSettings();
        CountDownLatch stop = new CountDownLatch(1);
        Termination.onTerminate(stop::countDown);
        Engine engine = engine(null, c -> {
            LogFiles.install(c.dataDir());
            return c.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200));
        });
        ScheduledExecutorService jobs = DaemonScheduler.create("serve-checks");
        ApiServer api = null;
        try {
            Services s = engine.services();
            if (!operator().role().includes(Role.SUPPORT)) {
                err().println(Messages.format("cli.serve.readOnly", operator().describe()));
                return ExitCode.FAILED.code();
            }
            if (!s.follower().appliesHere()) {
                // serve is where the follower runs for everyone; without it every move waits in Redis unseen.
                err().println(Messages.format("cli.serve.notFollower", operator().name(), Follower.SERVICE_ROLE));
                return ExitCode.FAILED.code();
            }
            int bound = s.metrics().startEndpoint(bindAddress, port);
            String host = bindAddress.getHostAddress();
            String url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound + "/metrics"; // i18n-ok: a URL
            jobs.scheduleWithFixedDelay(() -> checkAlerts(s), 0, ALERT_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
            if (reconcileEvery != null) {
                jobs.scheduleWithFixedDelay(() -> reconcile(s), 0, reconcileEvery.toMillis(), TimeUnit.MILLISECONDS);
            }
            String apiUrl = null;
            if (apiPort != null) {
                api = ApiServer.start(s, ApiServer.Settings.of(apiBind, apiPort).withEnvironment(global().environment()),
                        oidc == null ? null : new OidcVerifier(oidc));
                apiUrl = "http://" + (apiBind.contains(":") ? "[" + apiBind + "]" : apiBind) + ":" + api.port() + "/v1";
            }
            log.info("serve started as {}: metrics at {}", operator().describe(), url); // i18n-ok: log
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("metrics", url);
            doc.put("api", apiUrl);
            doc.put("operator", operator().name());
            doc.put("role", operator().role().label());
            emit(doc, Messages.format("cli.serve.started", url, operator().describe()) + System.lineSeparator()
                    + (apiUrl == null ? "" : Messages.format("cli.serve.apiStarted", apiUrl) + System.lineSeparator()));
            out().flush();
            stop.await();
            log.info("serve stopping"); // i18n-ok: log
            return ExitCode.OK.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.FAILED.code();
        } finally {
            if (api != null) {
                api.close(); // first: no request reaches services being closed
            }
            jobs.shutdownNow();
            awaitQuietly(jobs);
            engine.close();
            if (!json()) {
                out().println(Messages.get("cli.serve.stopped"));
                out().flush();
            }
        }
    }

    /**
     * @return the OIDC settings of the flags, each taken from the profile's key of the same name where its flag is absent;
     *     null when neither gives any
     * @throws picocli.CommandLine.ParameterException in words when some are given but not all, or one is malformed
     */
    private OidcSettings oidcSettings() {
        global().applyProfile();
        java.util.Map<String, String> fromProfile = global().profile() == null ? java.util.Map.of() : global().profile().oidc();
        String[] given = {oidcIssuer, oidcAudience, oidcRoleClaim, oidcRoleMap};
        String[] value = new String[given.length];
        java.util.List<String> missing = new java.util.ArrayList<>();
        boolean any = false;
        for (int i = 0; i < given.length; i++) {
            String key = com.orderconsole.app.Profile.OIDC_KEYS.get(i);
            value[i] = given[i] != null ? given[i] : fromProfile.get(key);
            any |= value[i] != null;
            if (value[i] == null) {
                missing.add("--" + key);
            }
        }
        if (!any) {
            return null;
        }
        if (apiPort == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), Messages.get("cli.serve.oidcWithoutApi"));
        }
        if (!missing.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    Messages.format("cli.serve.oidcIncomplete", String.join(", ", missing)));
        }
        try {
            return OidcSettings.of(value[0], value[1], value[2], value[3]);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static void checkAlerts(Services s) {
        try {
            // A store that stops answering is an incident of its own: the figure alerts below say nothing while Redis is down.
            for (com.orderconsole.service.metrics.MetricsService.StoreChange c : s.metrics().checkStores()) {
                if (c.up()) {
                    log.info("alert {}_DOWN cleared: {} answers again", c.store().toUpperCase(java.util.Locale.ROOT), c.store()); // i18n-ok: log
                } else {
                    log.warn("alert {}_DOWN: {}", c.store().toUpperCase(java.util.Locale.ROOT), c.reason()); // i18n-ok: log
                }
            }
            for (Alert a : s.metrics().checkAlerts()) {
                if (a.raised()) {
                    log.warn("alert {}: {} (threshold {})", a.kind(), figure(a.value()), figure(a.threshold())); // i18n-ok: log
                } else {
                    log.info("alert {} cleared: {} (threshold {})", a.kind(), figure(a.value()), figure(a.threshold())); // i18n-ok: log
                }
            }
        } catch (RuntimeException e) {
            log.warn("alert check failed, will retry: {}", e.getMessage()); // i18n-ok: log
        }
    }

    private static void reconcile(Services s) {
        try {
            s.reconciliation().run(null, (phase, done, total) -> { }, () -> Thread.currentThread().isInterrupted());
        } catch (RuntimeException e) {
            log.warn("scheduled reconciliation failed, will retry: {}", e.getMessage()); // i18n-ok: log
        }
    }

    private static String figure(double v) {
        return String.format(java.util.Locale.ROOT, "%.2f", v);
    }

    private static void awaitQuietly(ScheduledExecutorService jobs) {
        try {
            jobs.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
