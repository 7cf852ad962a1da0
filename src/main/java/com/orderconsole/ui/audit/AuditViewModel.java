package com.orderconsole.ui.audit;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.audit.AuditPage;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.audit.MoveKind;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.KeysetPager;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * The Audit page: every recorded action across orders, newest first, filtered by actor, source, legal move or
 * override, result code, days (local time zone) and order id prefix; keyset pages with Previous/Next;
 * export of every match as CSV or JSON. Reads only.
 */
public final class AuditViewModel implements Refreshable {
    /** Rows per page. */
    public static final int PAGE_SIZE = 100;
    /**
     * Sources the history and the audit log record, offered in the source filter (any other can be typed); the
     * audit log's repairs, rule changes and dead-letter actions are under the last three.
     */
    public static final List<String> SOURCES = com.orderconsole.service.audit.AuditSources.SHOWN;

    private final Audit audit;
    private final DialogService dialogs;
    private final int pageSize;
    private final StringProperty actor = new SimpleStringProperty("");
    private final StringProperty source = new SimpleStringProperty("");
    private final ObjectProperty<MoveKind> moveKind = new SimpleObjectProperty<>(MoveKind.ANY);
    private final ObjectProperty<ResultCode> code = new SimpleObjectProperty<>();
    private final ObjectProperty<LocalDate> fromDay = new SimpleObjectProperty<>();
    private final ObjectProperty<LocalDate> toDay = new SimpleObjectProperty<>();
    private final StringProperty idPrefix = new SimpleStringProperty("");
    private final javafx.beans.property.BooleanProperty flaggedOnly = new javafx.beans.property.SimpleBooleanProperty();
    private final Feedback feedback = new Feedback();
    private final KeysetPager<AuditEvent> pager;
    private final Command exportCommand;
    private AuditFilter filter = AuditFilter.all();

    /**
     * @param audit reads the recorded actions
     * @param background where reads and exports run
     * @param dialogs asks where to export
     */
    public AuditViewModel(Audit audit, Background background, DialogService dialogs) {
        this(audit, background, dialogs, PAGE_SIZE);
    }

    /** As above with another page size (tests). */
    public AuditViewModel(Audit audit, Background background, DialogService dialogs, int pageSize) {
        this.audit = audit;
        this.dialogs = dialogs;
        this.pageSize = pageSize;
        this.pager = new KeysetPager<>(background, reader(AuditFilter.all(), false), Messages.get("audit.do.load"), e -> e.kind() + ":" + e.id(),
                rows -> feedback.ok(rows.isEmpty() ? Messages.get("audit.none") : ""), feedback::error);
        this.exportCommand = new Command(background, feedback::error);
    }

    /** Applies the filter fields and shows the first page; a bad field is named and nothing is read. */
    public void search() {
        AuditFilter f;
        try {
            f = buildFilter();
        } catch (IllegalArgumentException e) {
            feedback.error(e.getMessage());
            return;
        }
        filter = f;
        pager.first(reader(f, flaggedOnly.get()));
    }

    /** Empties every filter field and shows the first page of everything. */
    public void clearFilters() {
        actor.set("");
        source.set("");
        moveKind.set(MoveKind.ANY);
        code.set(null);
        fromDay.set(null);
        toDay.set(null);
        idPrefix.set("");
        flaggedOnly.set(false);
        search();
    }

    /** Pages read for one page of flagged rows at most; the page then shows what was found and Next goes on. */
    static final int FLAGGED_SCAN_PAGES = 50;

    /**
     * @param flagged only rows whose actor is not the account that wrote them ({@link AuditEvent#actorUnlike()}): the
     *     flag is worked out per page after the read (it needs the followers' logins), so the reader reads pages of the
     *     filter on until it has a page of flagged rows, the end, or {@value #FLAGGED_SCAN_PAGES} pages
     */
    private KeysetPager.Reader<AuditEvent> reader(AuditFilter f, boolean flagged) {
        return (cursor, job) -> {
            if (!flagged) {
                AuditPage p = audit.page(f, cursor, pageSize);
                return new KeysetPager.Page<>(p.rows(), p.nextCursor());
            }
            List<AuditEvent> found = new java.util.ArrayList<>();
            String at = cursor;
            for (int read = 0; read < FLAGGED_SCAN_PAGES && found.size() < pageSize && !job.cancelled(); read++) {
                AuditPage p = audit.page(f, at, pageSize);
                p.rows().stream().filter(AuditEvent::actorUnlike).forEach(found::add);
                at = p.nextCursor();
                if (at == null) {
                    break;
                }
            }
            return new KeysetPager.Page<>(found, at);
        };
    }

    AuditFilter buildFilter() {
        ZoneId zone = ZoneId.systemDefault();
        Long from = fromDay.get() == null ? null : fromDay.get().atStartOfDay(zone).toInstant().toEpochMilli();
        // "to" is a whole day: up to the start of the next.
        Long to = toDay.get() == null ? null : toDay.get().plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
        return new AuditFilter(actor.get(), source.get(), moveKind.get(), code.get(), from, to, idPrefix.get());
    }

    /** Shows the next page. */
    public void nextPage() {
        pager.next();
    }

    /** Shows the previous page. */
    public void previousPage() {
        pager.previous();
    }

    /** Reads the current page again (F5); the selected row stays selected when it is still there. */
    @Override
    public void refresh() {
        pager.refresh();
    }

    /** Asks where to save every matching action as CSV, then writes them. */
    public void exportCsv() {
        dialogs.askSaveFile(Messages.get("audit.export.csvTitle"), "audit.csv", "CSV", "*.csv").ifPresent(f -> exportTo(f, false));
    }

    /** Asks where to save every matching action as JSON, then writes them. */
    public void exportJson() {
        dialogs.askSaveFile(Messages.get("audit.export.jsonTitle"), "audit.json", "JSON", "*.json").ifPresent(f -> exportTo(f, true));
    }

    /**
     * Writes every action matching the filter in force (the one last searched) to a file, page by page.
     *
     * @param json true for JSON, else CSV
     */
    public void exportTo(Path file, boolean json) {
        AuditFilter f = filter;
        exportCommand.run(Messages.get("audit.do.export"), j -> {
            if (json) {
                try (OutputStream o = Files.newOutputStream(file)) {
                    return audit.exportJson(f, o, j::cancelled);
                }
            }
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                return audit.exportCsv(f, w, j::cancelled);
            }
        }, n -> feedback.ok(Messages.format("audit.exported", n, file.toString())));
    }

    /**
     * @param e a recorded action
     * @return what it did in words, e.g. "PAID → WAIT_SHIP v3" or "QUEUE_EXTEND: deadline …"
     */
    public static String what(AuditEvent e) {
        if (e.kind() == AuditEvent.Kind.ACTION) {
            // The detail is stored in English with machine times; it is shown in the language in use, times local.
            return actionName(e.action()) + (e.detail() == null || e.detail().isEmpty() ? "" : ": " + com.orderconsole.ui.common.RepairText.detail(e.detail()));
        }
        // Status names in the language in use (zh-CN showed the English names here, issue 34).
        String to = e.to() == null ? "?" : com.orderconsole.ui.common.OrderText.status(e.to());
        if (e.from() != null && e.code() != null && !e.code().applied()) {
            // A refused move's row holds the status and version found, not a move: "CANCELLED → CANCELLED v2" read as
            // if a cancelled order had been cancelled again (tester finding 12, a queue cancel that lost to the sweeper).
            return Messages.format("audit.refused", to, com.orderconsole.ui.common.OrderText.status(e.from()), String.valueOf(e.version()));
        }
        return (e.from() == null ? Messages.format("audit.created", to)
                : com.orderconsole.ui.common.OrderText.status(e.from()) + " → " + to) + " v" + e.version();
    }

    /** @return an audit-log action's name in words (key audit.action.NAME), or the name as recorded when it has none */
    static String actionName(String action) {
        String key = "audit.action." + action;
        return action != null && Messages.bundle().containsKey(key) ? Messages.get(key) : String.valueOf(action);
    }

    /** @return the result in words ("" for actions), e.g. "-3 · order changed since it was read" */
    public static String result(AuditEvent e) {
        return e.code() == null ? "" : e.code().code() + " · " + Messages.get("audit.code." + e.code().name());
    }

    public StringProperty actorProperty() {
        return actor;
    }

    public StringProperty sourceProperty() {
        return source;
    }

    public ObjectProperty<MoveKind> moveKindProperty() {
        return moveKind;
    }

    /** @return the result code filter; null for any */
    public ObjectProperty<ResultCode> codeProperty() {
        return code;
    }

    /** @return first day shown (local time zone), null for no bound */
    public ObjectProperty<LocalDate> fromDayProperty() {
        return fromDay;
    }

    /** @return last day shown, inclusive (local time zone), null for no bound */
    public ObjectProperty<LocalDate> toDayProperty() {
        return toDay;
    }

    public StringProperty idPrefixProperty() {
        return idPrefix;
    }

    /**
     * @return true to list only flagged rows: written by a database account other than the actor they name (and not the
     *     follower's normal work), applied on Search
     */
    public javafx.beans.property.BooleanProperty flaggedOnlyProperty() {
        return flaggedOnly;
    }

    /** @return the current page's actions, newest first */
    public ObservableList<AuditEvent> rows() {
        return pager.rows();
    }

    public ObjectProperty<AuditEvent> selectedProperty() {
        return pager.selectedProperty();
    }

    /** @return the pages and their selection */
    public KeysetPager<AuditEvent> pager() {
        return pager;
    }

    public Command loadCommand() {
        return pager.loadCommand();
    }

    public Command exportCommand() {
        return exportCommand;
    }

    public Feedback feedback() {
        return feedback;
    }

    /**
     * @return the account that wrote the row as the database stamped it, with a warning when the row names another
     *     actor outside the follower's normal work; "" when the database stamped none (before V38, no grant tables)
     */
    public static String writer(AuditEvent e) {
        if (e.writtenBy() == null) {
            return "";
        }
        return e.actorUnlike() ? Messages.format("audit.writer.unlike", e.writtenBy()) : e.writtenBy();
    }
}
