package com.orderconsole.ui.common;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Environment;
import javafx.beans.binding.Bindings;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import com.orderconsole.domain.OrderStatus;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@link DialogService} with real JavaFX dialogs, owned by the console's window. The confirm button of
 * every dialog has the id {@code confirmButton} and takes status names literally (they contain '_',
 * which a button would otherwise take as a mnemonic marker).
 */
public final class FxDialogService implements DialogService {
    /** The button that closes a question without acting. */
    private static final ButtonType BACK = new ButtonType(Messages.get("common.back"), ButtonBar.ButtonData.CANCEL_CLOSE);
    private final Supplier<Window> owner;
    private final Environment environment;

    /** @param owner the window dialogs belong to (centred on it, blocking it); may answer null before it exists */
    public FxDialogService(Supplier<Window> owner) {
        this(owner, Environment.LOCAL);
    }

    /**
     * @param owner the window dialogs belong to; may answer null before it exists
     * @param environment named in every dialog's title; on production risky actions ask for typing
     */
    public FxDialogService(Supplier<Window> owner, Environment environment) {
        this.owner = owner;
        this.environment = environment;
    }

    @Override
    public Environment environment() {
        return environment;
    }

    @Override
    public boolean confirmTyped(String title, String text, String expected) {
        Dialog<Boolean> dialog = new Dialog<>();
        prepare(dialog, title, text);
        ButtonType confirm = new ButtonType(title, ButtonBar.ButtonData.OK_DONE);
        ButtonType back = new ButtonType(Messages.get("env.typed.back"), ButtonBar.ButtonData.CANCEL_CLOSE);
        dialog.getDialogPane().getButtonTypes().addAll(confirm, back);
        TextField typed = new TextField();
        typed.setId("typedField");
        typed.setPromptText(expected);
        Label prompt = new Label(Messages.format("env.typed.prompt", environment.name(), expected));
        prompt.setWrapText(true);
        prompt.setId("typedPrompt");
        Label label = new Label(Messages.get("env.typed.label"));
        label.setLabelFor(typed);
        dialog.getDialogPane().setContent(new VBox(6, prompt, label, typed));
        Button confirmButton = confirmButton(dialog, confirm);
        confirmButton.disableProperty().bind(Bindings.createBooleanBinding(() -> !expected.equals(typed.getText().strip()),
                typed.textProperty()));
        tabGoesToConfirm(typed, confirmButton);
        dialog.setResultConverter(b -> b == confirm && expected.equals(typed.getText().strip()));
        dialog.setOnShown(e -> typed.requestFocus());
        return dialog.showAndWait().orElse(false);
    }

    @Override
    public boolean confirm(String title, String statement, String details, String confirmLabel) {
        ButtonType confirm = new ButtonType(confirmLabel, ButtonBar.ButtonData.OK_DONE);
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, details, confirm, BACK);
        prepare(a, title, statement);
        confirmButton(a, confirm);
        return a.showAndWait().filter(b -> b == confirm).isPresent();
    }

    @Override
    public Optional<String> askReason(String title, String statement, String confirmLabel) {
        Dialog<String> dialog = new Dialog<>();
        prepare(dialog, title, statement);
        ButtonType confirm = new ButtonType(confirmLabel, ButtonBar.ButtonData.OK_DONE);
        // "Back", not "Cancel": beside "Cancel order" a second "Cancel" reads as the same action.
        dialog.getDialogPane().getButtonTypes().addAll(confirm, BACK);
        TextArea reason = new TextArea();
        reason.setId("reasonField");
        reason.setPromptText(Messages.get("common.reason.prompt"));
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        dialog.getDialogPane().setContent(new VBox(6, new Label(Messages.get("common.reason")), reason, reasonProblemLabel(reason)));
        Button confirmButton = confirmButton(dialog, confirm);
        confirmButton.disableProperty().bind(Bindings.createBooleanBinding(
                () -> reason.getText().isBlank() || !reasonProblem(reason.getText()).isEmpty(), reason.textProperty()));
        // Checked again as the button fires (a paste between two key strokes): the dialog never closes on a refused reason.
        confirmButton.addEventFilter(ActionEvent.ACTION, e -> {
            if (reason.getText().isBlank() || !reasonProblem(reason.getText()).isEmpty()) {
                e.consume();
            }
        });
        reasonKeys(dialog, reason, confirmButton);
        dialog.setResultConverter(b -> b == confirm ? reason.getText().strip() : null);
        dialog.setOnShown(e -> reason.requestFocus());
        return dialog.showAndWait();
    }

    /**
     * What the history would refuse (a second line, a tab, more than 500 characters) is said under the box, while the
     * dialog stays open with the text as typed: refused after closing, the reason was lost (issue 34).
     */
    private static Label reasonProblemLabel(TextArea reason) {
        Label problem = new Label();
        problem.setId("reasonProblem");
        problem.setWrapText(true);
        problem.getStyleClass().add(Styles.MSG_ERROR);
        // Never cut to one line with "…": the words are the whole point (seen cut in a real window).
        problem.setMinHeight(Region.USE_PREF_SIZE);
        problem.textProperty().bind(Bindings.createStringBinding(() -> reasonProblem(reason.getText()), reason.textProperty()));
        problem.visibleProperty().bind(problem.textProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        return problem;
    }

    /**
     * Tab moves on to the buttons (Shift+Tab back), Enter confirms, Shift+Enter starts a new line: the history keeps a
     * reason on one line, so a second line is refused under the box at once (typed words are never glued together
     * silently) and the confirm button waits until it is gone.
     */
    private static void reasonKeys(Dialog<String> dialog, TextArea reason, Button confirmButton) {
        reason.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.TAB && !e.isControlDown()) {
                e.consume();
                Node target = e.isShiftDown() ? dialog.getDialogPane().lookupButton(BACK) : confirmButton;
                (target.isDisabled() ? dialog.getDialogPane().lookupButton(BACK) : target).requestFocus();
            } else if (e.getCode() == KeyCode.ENTER && !e.isShiftDown()) {
                e.consume();
                if (!confirmButton.isDisabled()) {
                    confirmButton.fire();
                }
            } else if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                reason.insertText(reason.getCaretPosition(), "\n");
            }
        });
        // The characters of those keys are not typed into the reason either.
        reason.addEventFilter(KeyEvent.KEY_TYPED, e -> {
            String c = e.getCharacter();
            if ("\t".equals(c) && !e.isControlDown() || "\r".equals(c) || "\n".equals(c)) {
                e.consume();
            }
        });
    }

    @Override
    public boolean confirmTyped(String title, String statement, String details, String phrase, String confirmLabel) {
        Dialog<Boolean> dialog = new Dialog<>();
        prepare(dialog, title, statement);
        ButtonType confirm = new ButtonType(confirmLabel, ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(confirm, BACK);
        TextField typed = new TextField();
        typed.setId("typedConfirmation");
        // On production the line says so, as the one-thing confirmation does: the count alone did not tell where.
        Label ask = new Label(environment.production() ? Messages.format("env.typed.prompt", environment.name(), phrase)
                : Messages.format("bulk.typeToConfirm", phrase));
        ask.setId("typedPrompt");
        ask.setWrapText(true);
        Label more = new Label(details);
        more.setWrapText(true);
        dialog.getDialogPane().setContent(new VBox(8, more, ask, typed));
        Button confirmButton = confirmButton(dialog, confirm);
        confirmButton.disableProperty().bind(Bindings.createBooleanBinding(() -> !typed.getText().strip().equals(phrase),
                typed.textProperty()));
        tabGoesToConfirm(typed, confirmButton);
        dialog.setResultConverter(b -> b == confirm && typed.getText().strip().equals(phrase));
        dialog.setOnShown(e -> typed.requestFocus());
        return dialog.showAndWait().orElse(false);
    }

    @Override
    public void inform(String title, String statement, String details) {
        Alert a = new Alert(Alert.AlertType.INFORMATION, details, ButtonType.OK);
        prepare(a, title, statement);
        a.showAndWait();
    }

    @Override
    public Optional<Path> askSaveFile(String title, String initialName, String typeName, String pattern) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title(environment, title));
        fc.setInitialFileName(initialName);
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(typeName, pattern));
        File f = fc.showSaveDialog(owner.get());
        return Optional.ofNullable(f).map(File::toPath);
    }

    @Override
    public <K> Optional<Map<K, Duration>> askDurations(String title, String statement, Map<K, Duration> current) {
        Dialog<Map<K, Duration>> d = new Dialog<>();
        prepare(d, title, statement);
        GridPane grid = new GridPane();
        grid.setHgap(10);
        grid.setVgap(6);
        grid.setPadding(new Insets(10));
        Map<K, TextField> fields = new LinkedHashMap<>();
        int row = 0;
        for (Map.Entry<K, Duration> e : current.entrySet()) {
            TextField f = new TextField(Formats.duration(e.getValue()));
            f.setId("duration-" + e.getKey());
            grid.addRow(row++, new Label(e.getKey() instanceof OrderStatus s ? OrderText.status(s) : e.getKey().toString()), f);
            fields.put(e.getKey(), f);
        }
        Label error = new Label();
        error.getStyleClass().add(Styles.MSG_ERROR);
        grid.add(error, 0, row, 2, 1);
        d.getDialogPane().setContent(grid);
        ButtonType confirm = new ButtonType(Messages.get("common.ok"), ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(confirm, ButtonType.CANCEL);
        Map<K, Duration> parsed = new LinkedHashMap<>();
        // Checked before the dialog closes, so a typo keeps the dialog open with the fault named.
        confirmButton(d, confirm).addEventFilter(ActionEvent.ACTION, ev -> {
            parsed.clear();
            try {
                fields.forEach((k, f) -> parsed.put(k, Formats.parseDuration(f.getText())));
            } catch (IllegalArgumentException ex) {
                error.setText(ex.getMessage());
                ev.consume();
            }
        });
        d.setResultConverter(b -> b == confirm ? parsed : null);
        return d.showAndWait();
    }

    /** @return what the history would refuse in this reason, in words; "" when it may be kept */
    private static String reasonProblem(String reason) {
        String r = reason.strip();
        String p = com.orderconsole.domain.TransitionRequest.reasonProblem(r);
        if (p == null) {
            return "";
        }
        // The same rule, in the words of the person typing: the domain's wording is for logs and scripts.
        if (com.orderconsole.domain.ControlChars.in(r)) {
            return Messages.get("common.reason.oneLine");
        }
        int length = com.orderconsole.domain.TransitionRequest.reasonLength(r);
        if (length > com.orderconsole.domain.TransitionRequest.MAX_REASON) {
            return Messages.format("common.reason.tooLong", com.orderconsole.domain.TransitionRequest.MAX_REASON, length);
        }
        return Messages.format("common.reason.refused", p);
    }

    /**
     * Tab from the typed text goes to the confirm button once the text matches, and otherwise stays in the field: on
     * Linux the button bar puts Back first, so "type, Tab, Enter" silently cancelled a production override (issue 34).
     * Shift+Tab and the mouse still reach Back, as does Escape.
     */
    private static void tabGoesToConfirm(TextField typed, Button confirmButton) {
        typed.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.TAB && !e.isShiftDown() && !e.isControlDown()) {
                e.consume();
                if (!confirmButton.isDisabled()) {
                    confirmButton.requestFocus();
                }
            }
        });
    }

    private void prepare(Dialog<?> dialog, String title, String statement) {
        Window w = owner.get();
        if (w != null) {
            dialog.initOwner(w);
        }
        dialog.setTitle(title(environment, title));
        dialog.setHeaderText(statement);
        // The environment's colour along the dialog's top edge, as on the window's band.
        dialog.getDialogPane().setStyle("-fx-border-color: " + environment.colour() + "; -fx-border-width: 5 0 0 0;");
        keepOnScreen(dialog);
    }

    /**
     * Keeps the whole dialog on the screen of its owner. A dialog is centred on its owner at the width its text has on
     * one line; wrapping then makes it narrower without moving it, so a long text left its left edge off-screen
     * (seen at 1280×800 with the bulk move's typed count). Moved back inside whenever it is shown or resized.
     */
    private void keepOnScreen(Dialog<?> dialog) {
        Window w = dialog.getDialogPane().getScene() == null ? null : dialog.getDialogPane().getScene().getWindow();
        if (w == null) {
            return;
        }
        Runnable inside = () -> {
            if (!w.isShowing()) {
                return;
            }
            Window o = owner.get();
            javafx.geometry.Rectangle2D area = (o == null ? javafx.stage.Screen.getPrimary()
                    : javafx.stage.Screen.getScreensForRectangle(o.getX(), o.getY(), Math.max(1, o.getWidth()), Math.max(1, o.getHeight()))
                    .stream().findFirst().orElse(javafx.stage.Screen.getPrimary())).getVisualBounds();
            double x = Math.max(area.getMinX(), Math.min(w.getX(), area.getMaxX() - w.getWidth()));
            double y = Math.max(area.getMinY(), Math.min(w.getY(), area.getMaxY() - w.getHeight()));
            if (x != w.getX()) {
                w.setX(x);
            }
            if (y != w.getY()) {
                w.setY(y);
            }
        };
        w.addEventHandler(javafx.stage.WindowEvent.WINDOW_SHOWN, e -> inside.run());
        w.widthProperty().addListener((o, a, b) -> inside.run());
        w.heightProperty().addListener((o, a, b) -> inside.run());
        w.xProperty().addListener((o, a, b) -> inside.run());
    }

    /**
     * @param env the environment
     * @param title a dialog's own title
     * @return the title with the environment's name in front, e.g. "[prod-eu] Move order"
     */
    public static String title(Environment env, String title) {
        return Messages.format("env.dialogTitle", env.name(), title);
    }

    private static Button confirmButton(Dialog<?> dialog, ButtonType confirm) {
        Button b = (Button) dialog.getDialogPane().lookupButton(confirm);
        b.setId("confirmButton");
        b.setMnemonicParsing(false);
        return b;
    }
}
