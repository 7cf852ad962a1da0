package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Environment;
import com.orderconsole.service.importer.ImportReport;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Formats;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The splash's model: starts the engine and, on a first start (no orders stored yet), imports the
 * bundled Olist sample so the console opens on real orders. Both run in the background; the splash
 * shows what is happening and the import's rows done of total.
 */
public final class StartViewModel {
    /** Progress value for "working, amount unknown" (what a ProgressBar shows as indeterminate). */
    public static final double UNKNOWN = -1;

    private final Background background;
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(Messages.get("main.start.engine"));
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(UNKNOWN);
    private final ReadOnlyStringWrapper failure = new ReadOnlyStringWrapper("");

    /** @param background where the engine start and the import run */
    public StartViewModel(Background background) {
        this.background = background;
    }

    /**
     * Starts the engine, then (local and dev only) imports the bundled sample when the store is empty, then hands over.
     * A failed import does not keep the console closed: the orders imported so far are kept and the
     * failure is handed over as the note, for the status bar.
     *
     * @param config servers and tuning
     * @param environment where the console works: only local and dev get the sample ({@link ProductionGuard#demoDataAllowed});
     *     an empty staging or production database stays empty
     * @param ready receives the running engine and a note for the status bar ("" when nothing was imported)
     */
    public void start(EngineConfig config, Environment environment, BiConsumer<Engine, String> ready) {
        status.set(config.redisUri() == null ? Messages.get("main.start.embedded") : Messages.get("main.start.connecting"));
        boolean demo = new ProductionGuard(environment).demoDataAllowed();
        background.run(Messages.get("main.start.action"), job -> Engine.start(config), engine -> {
            if (demo) {
                importSample(engine, ready);
            } else {
                ready.accept(engine, "");
            }
        }, error -> {
            progress.set(0);
            status.set(error);
            failure.set(error);
        });
    }

    /**
     * Remote mode: no engine and no store; asks serve who the access token acts as ({@code GET /v1/me}) in the
     * background, then hands over the services through serve and that operator (the band shows their name and role).
     * When serve does not answer or the sign-in is refused, the splash says so in words and nothing is handed over.
     *
     * @param remote serve's address, the person's tokens, the environment
     * @param ready receives the remote services and the operator serve names
     */
    public void startRemote(com.orderconsole.app.remote.RemoteStart remote,
                            BiConsumer<com.orderconsole.app.remote.RemoteServices, com.orderconsole.domain.Operator> ready) {
        status.set(Messages.format("main.start.remote", remote.server()));
        com.orderconsole.app.remote.RemoteServices services = remote.services();
        background.run(Messages.get("main.start.remoteAction"), job -> services.whoAmI(), who -> ready.accept(services, who),
                error -> {
                    progress.set(0);
                    status.set(error);
                    failure.set(error);
                });
    }

    private void importSample(Engine engine, BiConsumer<Engine, String> ready) {
        status.set(Messages.get("main.start.checking"));
        background.run(Messages.get("main.start.importAction"), job -> engine.services().importer().importBundledSampleIfEmpty(
                        (done, total) -> background.fx(() -> showImport(done, total))),
                (Optional<ImportReport> report) -> ready.accept(engine, report.map(StartViewModel::importedText).orElse("")),
                error -> ready.accept(engine, error));
    }

    private void showImport(long done, long total) {
        status.set(Messages.format("main.start.importing", done, total));
        progress.set(total > 0 ? (double) done / total : UNKNOWN);
    }

    /**
     * @param r the bundled sample's import
     * @return e.g. "First start: imported 4,998 Olist sample orders in 3 s"
     */
    static String importedText(ImportReport r) {
        String skipped = r.problems().isEmpty() ? "" : Messages.format("main.start.skipped", r.problems().size());
        return Messages.format("main.start.imported", r.imported(), Formats.elapsed(r.millis()), skipped);
    }

    /** @return what is happening, or why the engine could not start */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** @return 0..1 during the import, {@link #UNKNOWN} while the amount of work is unknown */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** @return why the engine could not start in words, "" while it has not failed */
    public ReadOnlyStringProperty failureProperty() {
        return failure.getReadOnlyProperty();
    }
}
