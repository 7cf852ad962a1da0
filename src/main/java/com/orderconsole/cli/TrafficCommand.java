package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.app.Messages;
import com.orderconsole.app.NotConfirmedException;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.Services;
import com.orderconsole.service.traffic.SimulatorSettings;
import com.orderconsole.service.traffic.SimulatorStatus;
import com.orderconsole.service.traffic.TrafficSimulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code traffic}: the console's live-traffic simulator, headless and bounded: at most {@code --rate} orders a
 * second for {@code --seconds}, so never more than rate × seconds orders; then it stops and says what it did. The
 * cancel sweeper and the MySQL follower run meanwhile, as in the console. Role: ops. Refused on production; on
 * staging only with {@code --yes}.
 */
@Command(name = "traffic", resourceBundle = Messages.BUNDLE)
final class TrafficCommand extends CliCommand {
    /** Longest run, seconds: a demo or a smoke test, not a load test (the bench has those). */
    static final int MAX_SECONDS = 3600;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "5", descriptionKey = "cli.traffic.opt.rate")
    double rate;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10", descriptionKey = "cli.traffic.opt.seconds")
    int seconds;

    @Option(names = "--pay-share", paramLabel = "SHARE", defaultValue = "0.8", descriptionKey = "cli.traffic.opt.payShare")
    double payShare;

    @Option(names = "--late-pay-share", paramLabel = "SHARE", defaultValue = "0.05", descriptionKey = "cli.traffic.opt.latePayShare")
    double latePayShare;

    @Option(names = "--payment-timeout", paramLabel = "DURATION", defaultValue = "20s", converter = Converters.DurationConverter.class,
            descriptionKey = "cli.traffic.opt.paymentTimeout")
    Duration paymentTimeout;

    @Override
    public Integer call() throws Exception {
        if (!(rate > 0 && rate <= SimulatorSettings.MAX_RATE)) {
            throw new ParameterException(spec.commandLine(), Messages.format("cli.traffic.badRate", SimulatorSettings.MAX_RATE, rate));
        }
        if (seconds < 1 || seconds > MAX_SECONDS) {
            throw new ParameterException(spec.commandLine(), Messages.format("cli.traffic.badSeconds", MAX_SECONDS, seconds));
        }
        SimulatorSettings settings;
        try {
            settings = new SimulatorSettings(rate, payShare, latePayShare, paymentTimeout);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), Messages.format("cli.traffic.badShares", payShare, latePayShare));
        }
        long maxOrders = Math.max(1, (long) Math.floor(rate * seconds));
        global().applyProfile();
        ProductionGuard guard = guard();
        if (guard.simulator() == ProductionGuard.Simulator.REFUSED) {
            throw new NotConfirmedException(guard.simulatorRefusal());
        }
        if (guard.simulator() == ProductionGuard.Simulator.CONFIRM && global().yes == null) {
            throw new NotConfirmedException(Messages.format("guard.simulator.confirm", guard.environment().name(), maxOrders));
        }
        // The sweeper cancels the unpaid orders and the follower records every move, as while the console runs.
        try (Engine engine = engine(null, c -> c.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)))) {
            Services s = engine.services();
            TrafficSimulator sim = s.simulator();
            sim.start(operator(), settings, maxOrders);
            try {
                Thread.sleep(Duration.ofSeconds(seconds).toMillis());
            } finally {
                sim.stop();
            }
            SimulatorStatus st = sim.status();
            boolean synced = catchUpMySql(s);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("seconds", seconds);
            doc.put("rate", rate);
            doc.put("maxOrders", maxOrders);
            doc.put("created", st.created());
            doc.put("paid", st.paid());
            doc.put("latePays", st.latePays());
            doc.put("shipped", st.shipped());
            doc.put("finished", st.finished());
            doc.put("mysqlSynced", synced);
            emit(doc, Messages.format("cli.traffic.done", seconds, rate, st.created(), st.paid(), st.latePays(), st.shipped(),
                    st.finished()) + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }
}
