package com.orderconsole.ui.start;

import com.orderconsole.ui.common.Fxml;
import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.VBox;

/** The splash shown while the engine starts (embedded servers take a few seconds), or why it could not. */
public final class StartView {
    private final VBox root;

    @FXML private Label operator;
    @FXML private ProgressBar progress;
    @FXML private Label status;
    @FXML private Button quitButton;

    /** @param operatorText who will be working, e.g. "alice · ops" */
    public StartView(String operatorText) {
        root = Fxml.load("/fxml/start/StartView.fxml", this);
        operator.setText("Working as " + operatorText);
    }

    /** @return the view's root node */
    public VBox root() {
        return root;
    }

    /** @param text what is starting, in words */
    public void showStatus(String text) {
        status.setText(text);
    }

    /** Shows why the engine did not start; the only way on is to quit. */
    public void showFailure(String text) {
        progress.setVisible(false);
        status.setText(text);
        status.getStyleClass().add("msg-error");
        quitButton.setVisible(true);
    }

    @FXML
    private void onQuit() {
        Platform.exit();
    }
}
