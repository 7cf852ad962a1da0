package com.orderconsole.ui;

import com.orderconsole.ui.common.DialogService;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link DialogService} for view-model tests: answers from a script written before the action, and
 * records every question. A question the script has no answer for fails the test.
 */
public final class ScriptedDialogs implements DialogService {
    private final Deque<Object> answers = new ArrayDeque<>();
    private final List<Question> asked = new ArrayList<>();
    private com.orderconsole.domain.Environment environment = com.orderconsole.domain.Environment.LOCAL;

    /** @return this, on another environment (e.g. a production profile, where risky actions ask for typing) */
    public ScriptedDialogs on(com.orderconsole.domain.Environment env) {
        this.environment = env;
        return this;
    }

    /** @return this; the next request to type a text is answered with it (confirmed only when it matches) */
    public ScriptedDialogs typed(String text) {
        answers.add(new Typed(text));
        return this;
    }

    private record Typed(String text) {
    }

    /**
     * One question as the view model asked it.
     *
     * @param kind "confirm", "typed", "reason", "inform", "file" or "durations" ("typed" of the production guard: details is the text expected)
     * @param title window title
     * @param statement what will happen
     * @param details more lines, "" when none
     * @param confirmLabel text of the confirm button, "" when the question has none
     */
    public record Question(String kind, String title, String statement, String details, String confirmLabel) {
    }

    /** @return this; the next confirmation is confirmed */
    public ScriptedDialogs yes() {
        answers.add(true);
        return this;
    }

    /** @return this; the next confirmation is declined */
    public ScriptedDialogs no() {
        answers.add(false);
        return this;
    }

    /** @return this; the next request for a reason is answered with it and confirmed */
    public ScriptedDialogs reason(String reason) {
        answers.add(Optional.of(reason));
        return this;
    }

    /** @return this; the next request for a reason, a file or durations is cancelled */
    public ScriptedDialogs cancel() {
        answers.add(Optional.empty());
        return this;
    }

    /** @return this; the next request for a file is answered with it */
    public ScriptedDialogs file(Path file) {
        answers.add(Optional.of(file));
        return this;
    }

    /** @return this; the next request for durations is answered with these */
    public ScriptedDialogs durations(Map<?, Duration> durations) {
        answers.add(Optional.of(durations));
        return this;
    }

    /** @return every question asked so far, oldest first */
    public List<Question> asked() {
        return asked;
    }

    @Override
    public boolean confirm(String title, String statement, String details, String confirmLabel) {
        return (Boolean) answer(new Question("confirm", title, statement, details, confirmLabel));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<String> askReason(String title, String statement, String confirmLabel) {
        return (Optional<String>) answer(new Question("reason", title, statement, "", confirmLabel));
    }

    @Override
    public void inform(String title, String statement, String details) {
        asked.add(new Question("inform", title, statement, details, ""));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<Path> askSaveFile(String title, String initialName, String typeName, String pattern) {
        return (Optional<Path>) answer(new Question("file", title, initialName, pattern, ""));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K> Optional<Map<K, Duration>> askDurations(String title, String statement, Map<K, Duration> current) {
        return (Optional<Map<K, Duration>>) answer(new Question("durations", title, statement, current.toString(), ""));
    }

    /** Answered like {@link #confirm}: {@link #yes()} stands for "typed the phrase and confirmed". The phrase is kept as details. */
    @Override
    public boolean confirmTyped(String title, String statement, String details, String phrase, String confirmLabel) {
        return (Boolean) answer(new Question("typed", title, statement, phrase, confirmLabel));
    }

    @Override
    public boolean confirmTyped(String title, String text, String expected) {
        Object a = answer(new Question("typed", title, text, expected, ""));
        // As the real dialog: confirming is possible only once the text typed matches.
        return a instanceof Typed t && t.text().strip().equals(expected);
    }

    @Override
    public com.orderconsole.domain.Environment environment() {
        return environment;
    }

    private Object answer(Question q) {
        asked.add(q);
        if (answers.isEmpty()) {
            throw new AssertionError("the script has no answer for " + q);
        }
        return answers.poll();
    }
}
