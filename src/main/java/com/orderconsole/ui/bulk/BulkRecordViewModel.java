package com.orderconsole.ui.bulk;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The record half of the Bulk moves page: the list of recorded batches, the shown batch's per-order results (filtered
 * by outcome), their exports, and closing an abandoned batch (ops). Split from {@link BulkViewModel}, which keeps
 * choosing, previewing and moving: this half only reads what batches left behind, whoever ran them. Exports and closes
 * share the page's one-at-a-time command with previews and moves.
 */
public final class BulkRecordViewModel {
    /** Results and batches shown per page. */
    static final int PAGE = 500;

    private final Bulk bulk;
    private final Operator operator;
    private final DialogService dialogs;
    private final Feedback feedback;
    private final Command runCommand;
    private final ObservableList<BulkItem> results = FXCollections.observableArrayList();
    private final ObjectProperty<BulkItem> selectedResult = new SimpleObjectProperty<>();
    private final ObjectProperty<BulkItem.Outcome> outcomeFilter = new SimpleObjectProperty<>();
    private final ObservableList<BulkBatch> batches = FXCollections.observableArrayList();
    private final ObjectProperty<BulkBatch> selectedBatch = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<BulkBatch> shownBatch = new ReadOnlyObjectWrapper<>();
    private final Command exportCommand;
    private final Command closeCommand;
    private final Command batchesCommand;
    private final Command resultsCommand;

    /**
     * @param runCommand the page's one-at-a-time command (previews, moves, exports, closes)
     * @param feedback the page's outcome line
     */
    BulkRecordViewModel(Bulk bulk, Operator operator, Background background, DialogService dialogs, Command runCommand,
                         Feedback feedback) {
        this.bulk = bulk;
        this.operator = operator;
        this.dialogs = dialogs;
        this.feedback = feedback;
        this.runCommand = runCommand;
        this.exportCommand = runCommand.when(shownBatch.isNotNull());
        this.closeCommand = runCommand.when(Bindings.createBooleanBinding(
                () -> operator.role().includes(Role.OPS) && shownBatch.get() != null && shownBatch.get().closable(), shownBatch));
        this.batchesCommand = new Command(background, feedback::error);
        this.resultsCommand = new Command(background, feedback::error);
        outcomeFilter.addListener((o, a, b) -> loadResults());
        selectedBatch.addListener((o, a, b) -> {
            if (b != null && (a == null || a.id() != b.id())) {
                shown(b);
            }
        });
    }

    /** Shows this batch's results (a batch just run or closed). */
    void shown(BulkBatch b) {
        shownBatch.set(b);
        loadResults();
    }

    /**
     * Asks for a confirmation, then closes the shown abandoned batch (ops): every order it did not handle gets a result
     * ({@link Bulk#close}); afterwards shows its results again.
     */
    public void closeAbandoned() {
        BulkBatch b = shownBatch.get();
        if (b == null || !b.closable() || runCommand.isRunning()
                || !dialogs.confirm(Messages.get("bulk.close.title"), Messages.format("bulk.close.statement", b.id()),
                        Messages.get("bulk.close.details"), Messages.get("bulk.close.button"))) {
            return;
        }
        runCommand.run(Messages.get("bulk.do.close"), j -> bulk.close(operator, b.id(), "console"), closed -> {
            feedback.ok(Messages.format("bulk.closed", closed.id()));
            shown(closed);
            refresh();
        });
    }

    /** Reloads the list of batches (newest first); the selected one stays selected. */
    public void refresh() {
        batchesCommand.run(Messages.get("bulk.do.batches"), j -> bulk.batches(null, PAGE), batches::setAll);
    }

    private void loadResults() {
        BulkBatch b = shownBatch.get();
        if (b == null) {
            results.clear();
            return;
        }
        BulkItem.Outcome o = outcomeFilter.get();
        resultsCommand.runLatest(Messages.get("bulk.do.results"), j -> bulk.items(b.id(), o, null, PAGE), results::setAll);
    }

    /** Asks where to save the shown batch's results as CSV, then writes them. */
    public void exportCsv() {
        BulkBatch b = shownBatch.get();
        if (b != null) {
            dialogs.askSaveFile(Messages.get("bulk.export.csvTitle"), "bulk-" + b.id() + ".csv", "CSV", "*.csv")
                    .ifPresent(f -> exportTo(b, f, false));
        }
    }

    /** Asks where to save the shown batch and its results as JSON, then writes them. */
    public void exportJson() {
        BulkBatch b = shownBatch.get();
        if (b != null) {
            dialogs.askSaveFile(Messages.get("bulk.export.jsonTitle"), "bulk-" + b.id() + ".json", "JSON", "*.json")
                    .ifPresent(f -> exportTo(b, f, true));
        }
    }

    /**
     * Writes a batch's results to a file (all of them, streamed page by page).
     *
     * @param json true for JSON, else CSV
     */
    public void exportTo(BulkBatch b, Path file, boolean json) {
        runCommand.run(Messages.get("bulk.do.export"), j -> {
            if (json) {
                try (OutputStream o = Files.newOutputStream(file)) {
                    return bulk.exportJson(b.id(), o);
                }
            }
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                return bulk.exportCsv(b.id(), w);
            }
        }, n -> feedback.ok(Messages.format("bulk.exported", n, file.toString())));
    }

    /** @return per-order results of the shown batch (first {@value #PAGE}; exports hold all) */
    public ObservableList<BulkItem> results() {
        return results;
    }

    public ObjectProperty<BulkItem> selectedResultProperty() {
        return selectedResult;
    }

    /** @return only results with this outcome, null for all */
    public ObjectProperty<BulkItem.Outcome> outcomeFilterProperty() {
        return outcomeFilter;
    }

    /** @return recorded batches, newest first */
    public ObservableList<BulkBatch> batches() {
        return batches;
    }

    /** @return the batch selected in the list; selecting one shows its results */
    public ObjectProperty<BulkBatch> selectedBatchProperty() {
        return selectedBatch;
    }

    /** @return the batch whose results are shown */
    public ReadOnlyObjectProperty<BulkBatch> shownBatchProperty() {
        return shownBatch.getReadOnlyProperty();
    }

    /** @return executable while a batch is shown and nothing runs */
    public Command exportCommand() {
        return exportCommand;
    }

    /** @return executable for an ops user while an abandoned batch no one closed is shown and nothing runs */
    public Command closeCommand() {
        return closeCommand;
    }
}
