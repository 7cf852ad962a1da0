package com.orderconsole.ui.common;

import com.orderconsole.app.ProductionGuard;

import com.orderconsole.domain.Environment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Every question the console asks the user, in the spirit of JabRef's DialogService: view models ask
 * through it before they act, so the confirm-then-act logic is theirs and tested with a scripted
 * double; {@link FxDialogService} owns the real dialogs. Each call waits for the answer and is made on
 * the UI thread.
 */
public interface DialogService {

    /**
     * Asks yes or no.
     *
     * @param title window title, e.g. "Apply transition rules"
     * @param statement what will happen, e.g. "Apply these rules as version 2?"
     * @param details more lines under the statement, "" for none
     * @param confirmLabel text of the confirm button, e.g. "Apply as version 2"
     * @return true when confirmed, false when cancelled or closed
     */
    boolean confirm(String title, String statement, String details, String confirmLabel);

    /**
     * Asks yes or no with no details: {@link #confirm(String, String, String, String)} with "".
     *
     * @return true when confirmed
     */
    default boolean confirm(String title, String statement, String confirmLabel) {
        return confirm(title, statement, "", confirmLabel);
    }

    /**
     * Asks for a reason and a confirmation in one step; confirming stays impossible until a reason is typed.
     *
     * @param title window title, e.g. "Move order"
     * @param statement what will happen, e.g. "Move order o-1 from PAID to WAIT_SHIP?"
     * @param confirmLabel text of the confirm button, e.g. "Move to WAIT_SHIP"
     * @return the stripped reason when confirmed, empty when cancelled
     */
    Optional<String> askReason(String title, String statement, String confirmLabel);

    /**
     * Tells the user something that needs no decision.
     *
     * @param title window title
     * @param statement what it is about, e.g. "Repair: Missing in Redis"
     * @param details the news, e.g. "Dry run: nothing to repair in \"Missing in Redis\"."
     */
    void inform(String title, String statement, String details);

    /**
     * Asks where to save a file.
     *
     * @param title window title, e.g. "Export findings as CSV"
     * @param initialName suggested file name, e.g. "reconciliation.csv"
     * @param typeName name of the file type, e.g. "CSV"
     * @param pattern file name pattern of the type, e.g. "*.csv"
     * @return the chosen file, empty when cancelled
     */
    Optional<Path> askSaveFile(String title, String initialName, String typeName, String pattern);

    /**
     * Asks for one duration per key, typed as the console writes them ("30 min", "2 h", "14 d"); the
     * dialog does not close while a field is not a duration.
     *
     * @param title window title
     * @param statement what the durations mean
     * @param current one entry per field, in the order shown; the key's {@code toString()} names the field
     * @return every field's duration when confirmed, empty when cancelled
     */
    <K> Optional<Map<K, Duration>> askDurations(String title, String statement, Map<K, Duration> current);

    /**
     * Asks for a confirmation that must be typed: the confirm button stays disabled until the user typed
     * {@code phrase} exactly (e.g. the number of orders a bulk move will change). For actions whose size or
     * place (a production profile) makes a reflex click too cheap.
     *
     * @param title window title
     * @param statement what will happen
     * @param details more lines under the statement, "" for none
     * @param phrase what must be typed, shown in the dialog
     * @param confirmLabel text of the confirm button
     * @return true when the phrase was typed and confirmed
     */
    boolean confirmTyped(String title, String statement, String details, String phrase, String confirmLabel);

    /**
     * Asks the user to type a text exactly (the order id, or the count of what a bulk action or repair
     * touches) before a risky action on production; confirming stays impossible until it matches.
     *
     * @param title window title, e.g. "Override order status"
     * @param text what will happen, in words
     * @param expected what must be typed, e.g. "o-1" or "120"
     * @return true when the text was typed and confirmed, false when cancelled
     */
    boolean confirmTyped(String title, String text, String expected);

    /** @return the environment the dialogs belong to: named in every title, and production asks for typing */
    Environment environment();

    /**
     * The second step of a risky action (forced move, override, repair, bulk action): on a production
     * environment, {@link #confirmTyped}; elsewhere nothing more is asked.
     *
     * @return true when the action may go ahead
     */
    default boolean confirmOnProduction(String title, String text, String expected) {
        return !environment().production() || confirmTyped(title, text, expected);
    }

    /**
     * The console's side of the {@link ProductionGuard} for an action on one thing: where the guard asks (production,
     * a guarded action such as {@link ProductionGuard.Action#QUEUE_REMOVE}), {@code expected} must be typed; elsewhere nothing
     * more is asked.
     *
     * @param action what is about to change
     * @param title window title
     * @param text what will happen, in words
     * @param expected what must be typed, e.g. the order id or the environment's name
     * @return true when the action may go ahead
     */
    default boolean confirmGuarded(ProductionGuard.Action action, String title, String text, String expected) {
        return !new ProductionGuard(environment()).needsCount(action, 1) || confirmTyped(title, text, expected);
    }

    /**
     * The console's side of the {@link ProductionGuard}: where it asks for the count (production: every override,
     * repair, bulk move, rules change and dead-letter action, and any change of more than one order), the count
     * must be typed; elsewhere nothing more is asked.
     *
     * @param action what is about to change
     * @param count how many orders, findings or letters it changes (1 for a rules change)
     * @param title window title
     * @param text what will happen, in words
     * @return true when the action may go ahead
     */
    default boolean confirmCount(ProductionGuard.Action action, long count, String title, String text) {
        return !new ProductionGuard(environment()).needsCount(action, count) || confirmTyped(title, text, Long.toString(count));
    }
}
