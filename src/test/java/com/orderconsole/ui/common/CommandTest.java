package com.orderconsole.ui.common;

import com.orderconsole.ui.HeldBackground;
import javafx.beans.property.SimpleBooleanProperty;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command kit without servers: one run at a time, the latest answer wins, shared lanes, feedback. */
class CommandTest {
    private final HeldBackground background = new HeldBackground();
    private final Feedback feedback = new Feedback();
    private final Command command = new Command(background, feedback::error);
    private final List<String> shown = new ArrayList<>();

    @Test
    void anOlderAnswerNeverReplacesANewerOne() {
        command.runLatest("look up A", job -> "A", shown::add);
        command.runLatest("look up B", job -> "B", shown::add);
        assertThat(command.isRunning()).isTrue();

        background.release(1);
        assertThat(command.isRunning()).as("idle once the latest answered").isFalse();
        background.release(0);
        assertThat(shown).containsExactly("B");
    }

    @Test
    void aSupersededFailureIsDroppedToo() {
        command.<String>runLatest("look up A", job -> {
            throw new IllegalStateException("A is gone");
        }, shown::add);
        command.runLatest("look up B", job -> "B", shown::add);
        background.release(0);
        background.release(1);
        assertThat(shown).containsExactly("B");
        assertThat(feedback.messageProperty().get()).isEmpty();
    }

    @Test
    void runIsSkippedWhileTheLaneRunsAndFailuresReachTheFeedback() {
        assertThat(command.run("first", job -> "1", shown::add)).isTrue();
        assertThat(command.run("second", job -> "2", shown::add)).as("skipped: the first still runs").isFalse();
        background.release(0);
        assertThat(shown).containsExactly("1");

        command.<String>run("read the queue", job -> {
            throw new IllegalStateException("Redis did not answer");
        }, shown::add);
        background.release(1);
        assertThat(feedback.messageProperty().get()).isEqualTo("Could not read the queue: Redis did not answer");
        assertThat(feedback.errorProperty().get()).isTrue();
    }

    @Test
    void commandsOfOneLaneRunOneAtATimeAndAddTheirConditions() {
        SimpleBooleanProperty selected = new SimpleBooleanProperty();
        Command remove = command.when(selected);
        assertThat(command.executableProperty().get()).isTrue();
        assertThat(remove.executableProperty().get()).as("nothing selected").isFalse();
        selected.set(true);
        assertThat(remove.executableProperty().get()).isTrue();

        command.run("cancel", job -> "cancelled", shown::add);
        assertThat(remove.executableProperty().get()).as("the lane is busy").isFalse();
        assertThat(remove.runningProperty().get()).isTrue();
        assertThat(remove.run("remove", job -> "removed", shown::add)).isFalse();
        background.release(0);
        assertThat(remove.executableProperty().get()).isTrue();
        assertThat(shown).containsExactly("cancelled");
    }

    @Test
    void anAbandonedRunAnswersNobodyAndCancelReachesTheJob() {
        List<Job> jobs = new ArrayList<>();
        command.run("load", job -> {
            jobs.add(job);
            return "late";
        }, shown::add);
        command.cancel();
        assertThat(jobs.get(0).cancelled()).isTrue();
        command.abandon();
        assertThat(command.isRunning()).isFalse();
        background.release(0);
        assertThat(shown).isEmpty();
    }
}
