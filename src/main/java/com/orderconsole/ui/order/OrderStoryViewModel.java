package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.app.StoryWords;
import com.orderconsole.service.order.Orders;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.OrderText;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The story of the order open in the detail (issue 13.4): its steps as a timeline, each rejected attempt
 * explained with the time gap and the status it met, Redis vs MySQL versions while sync is pending, the
 * state at a chosen moment, and export as JSON. Read only when the story is open, and again when the
 * detail reads its order.
 */
public final class OrderStoryViewModel {
    private final Orders orders;
    private final DialogService dialogs;
    private final Command work;
    private final Feedback feedback = new Feedback();
    private final BooleanProperty open = new SimpleBooleanProperty(false);
    private final ReadOnlyObjectWrapper<OrderStory> story = new ReadOnlyObjectWrapper<>();
    private final ObservableList<OrderStory.Step> steps = FXCollections.observableArrayList();
    private final DoubleProperty moment = new SimpleDoubleProperty();
    private final ReadOnlyStringWrapper stateAt = new ReadOnlyStringWrapper("");
    private String orderId;

    /**
     * @param orders reads the story
     * @param background where reads and exports run
     * @param dialogs asks where to save an export
     */
    public OrderStoryViewModel(Orders orders, Background background, DialogService dialogs) {
        this.orders = orders;
        this.dialogs = dialogs;
        this.work = new Command(background, feedback::error);
        open.addListener((o, was, now) -> {
            if (now && orderId != null) {
                reload();
            }
        });
        moment.addListener((o, a, b) -> showStateAt());
    }

    /**
     * Follows the order the detail shows: reads its story when the story is open.
     *
     * @param id the order id, or null when the detail shows none
     */
    public void follow(String id) {
        boolean other = id == null || !id.equals(orderId);
        orderId = id;
        if (other) {
            story.set(null);
            steps.clear();
            stateAt.set("");
            feedback.clear();
        }
        if (id != null && open.get()) {
            reload();
        }
    }

    private void reload() {
        String id = orderId;
        work.runLatest(Messages.format("story.work.read", id), job -> orders.story(id), st -> {
            if (!st.orderId().equals(orderId)) {
                return;
            }
            OrderStory before = story.get();
            // A moment at the end of the story read before follows the story to its new end (a new step is shown at
            // once); a moment the user chose earlier stays where it is.
            boolean atEnd = before == null || moment.get() >= before.atMs();
            story.set(st);
            steps.setAll(st.steps());
            if (atEnd || moment.get() < firstMs() || moment.get() > st.atMs()) {
                moment.set(st.atMs());
            }
            showStateAt();
        });
    }

    /** Sets the moment to a step's time (the state then is shown). */
    public void select(OrderStory.Step step) {
        if (step != null) {
            moment.set(step.entry().atMs());
        }
    }

    /** Asks for a file, then writes the story as JSON to it (the same document as {@code show --story --json}). */
    public void exportJson() {
        OrderStory st = story.get();
        if (st == null) {
            return;
        }
        dialogs.askSaveFile(Messages.get("story.export.title"), "order-" + st.orderId() + "-story.json", "JSON", "*.json")
                .ifPresent(path -> export(st, path));
    }

    /**
     * Writes the story as JSON to a file.
     *
     * @param path where; replaced when it exists
     */
    void export(OrderStory st, Path path) {
        work.run(Messages.format("story.work.export", st.orderId()), job -> {
            try {
                Files.writeString(path, StoryWords.json(st), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(Messages.format("story.export.failed", path, e.getMessage()), e);
            }
            return path;
        }, p -> feedback.ok(Messages.format("story.export.done", st.steps().size(), p.toString())));
    }

    private void showStateAt() {
        OrderStory st = story.get();
        if (st == null) {
            stateAt.set("");
            return;
        }
        long at = (long) moment.get();
        OrderStory.StateAt s = st.stateAt(at);
        stateAt.set(s.status() == null ? Messages.format("story.stateAt.none", Formats.dateTime(at))
                : Messages.format("story.stateAt", Formats.dateTime(at), OrderText.status(s.status()), Long.toString(s.version()),
                Formats.dateTime(s.sinceMs())));
    }

    /** @return the time of the first step, epoch ms (0 without a story) */
    public long firstMs() {
        OrderStory st = story.get();
        return st == null || st.steps().isEmpty() ? 0 : st.steps().get(0).entry().atMs();
    }

    /** @return true while the story is shown (it is read only then) */
    public BooleanProperty openProperty() {
        return open;
    }

    /** @return the story read last, null before one */
    public ReadOnlyObjectProperty<OrderStory> storyProperty() {
        return story.getReadOnlyProperty();
    }

    /** @return the steps, oldest first */
    public ObservableList<OrderStory.Step> steps() {
        return steps;
    }

    /** @return the chosen moment, epoch ms (as a double for a slider) */
    public DoubleProperty momentProperty() {
        return moment;
    }

    /** @return the state at the chosen moment in words */
    public ReadOnlyStringProperty stateAtProperty() {
        return stateAt.getReadOnlyProperty();
    }

    /** @return reads and exports: executable while none runs */
    public Command work() {
        return work;
    }

    /** @return the last error or export outcome in words */
    public Feedback feedback() {
        return feedback;
    }
}
