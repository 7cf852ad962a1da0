package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.VBox;

/** The splash shown while the engine starts and the sample is imported, or why the engine could not start. */
public final class StartView {
    private final VBox root;

    @FXML private Label operator;
    @FXML private ProgressBar progress;
    @FXML private Label status;
    @FXML private Button quitButton;

    /**
     * @param vm the start-up's state
     * @param operatorText who will be working, e.g. "alice · ops"
     */
    public StartView(StartViewModel vm, String operatorText) {
        root = Fxml.load("/fxml/main/StartView.fxml", this);
        operator.setText(Messages.format("main.workingAs", operatorText));
        status.textProperty().bind(vm.statusProperty());
        progress.progressProperty().bind(vm.progressProperty());
        vm.failureProperty().addListener((o, a, text) -> {
            // The only way on after a failed start is to quit.
            boolean failed = !text.isEmpty();
            progress.setVisible(!failed);
            quitButton.setVisible(failed);
            Styles.toggle(status, Styles.MSG_ERROR, failed);
        });
    }

    /** @return the view's root node */
    public VBox root() {
        return root;
    }

    @FXML
    private void onQuit() {
        Platform.exit();
    }
}
