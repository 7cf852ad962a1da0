package com.orderconsole.ui.signin;

import com.orderconsole.app.Messages;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.common.Fxml;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.util.StringConverter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The sign-in dialog: database account, password (never shown) and, optionally, a lower role to work in.
 * It stays open, showing why, until the database accepts the account; closing it quits the console.
 */
public final class SignInView {
    /** What the role box shows for "no lowering". */
    static String highest() {
        return Messages.get("signin.highest");
    }

    private final SignInViewModel vm;
    private final VBox root;
    private BiConsumer<EngineConfig, Operator> signedIn = (c, o) -> { };
    private Stage window;

    @FXML private Label band;
    @FXML private Label database;
    @FXML private TextField account;
    @FXML private PasswordField password;
    @FXML private ComboBox<Role> role;
    @FXML private Label error;
    @FXML private Button signInButton;

    /** @param vm the dialog's state (local servers: the local environment's band) */
    public SignInView(SignInViewModel vm) {
        this(vm, com.orderconsole.domain.Environment.LOCAL);
    }

    /**
     * @param vm the dialog's state
     * @param environment where the operator signs in: its name in its colour tops the dialog, as the window's band will
     *     (issue 34: the sign-in of a production profile looked like any other)
     */
    public SignInView(SignInViewModel vm, com.orderconsole.domain.Environment environment) {
        this.vm = vm;
        root = Fxml.load("/fxml/signin/SignInView.fxml", this);
        band.setText(Messages.format("env.band", environment.name(), Messages.get("env.kind." + environment.kind().key())));
        band.setStyle(com.orderconsole.ui.common.Styles.environmentBand(environment));
        database.setText(Messages.format("signin.database", vm.database()));
        account.textProperty().bindBidirectional(vm.accountProperty());
        password.textProperty().bindBidirectional(vm.passwordProperty());
        List<Role> choices = new ArrayList<>();
        choices.add(null);
        choices.addAll(Arrays.asList(Role.values()));
        role.setItems(FXCollections.observableList(choices));
        role.setConverter(new StringConverter<>() {
            @Override
            public String toString(Role r) {
                return r == null ? highest() : com.orderconsole.ui.common.OrderText.role(r);
            }

            @Override
            public Role fromString(String s) {
                return null; // not editable
            }
        });
        role.setPromptText(highest());
        role.valueProperty().bindBidirectional(vm.roleProperty());
        error.textProperty().bind(vm.errorProperty());
        error.managedProperty().bind(error.textProperty().isNotEmpty());
        // The dialog keeps the size it opened with unless told: a reason shown later grows it to its whole height.
        error.textProperty().addListener((o, a, b) -> Platform.runLater(() -> {
            if (window != null && window.isShowing()) {
                window.sizeToScene();
            }
        }));
        signInButton.disableProperty().bind(vm.busyProperty());
        account.disableProperty().bind(vm.busyProperty());
        password.disableProperty().bind(vm.busyProperty());
    }

    /**
     * Shows the dialog over the owner window until the database accepts an account.
     *
     * @param then receives the configuration to start the engine with (account and password included) and who will be working
     */
    public void open(Stage owner, BiConsumer<EngineConfig, Operator> then) {
        signedIn = then;
        window = new Stage();
        window.initOwner(owner);
        window.initModality(Modality.WINDOW_MODAL);
        window.setTitle(Messages.get("signin.title"));
        Scene scene = new Scene(root);
        if (owner.getScene() != null) {
            scene.getStylesheets().setAll(owner.getScene().getStylesheets());
        }
        window.setScene(scene);
        window.setOnCloseRequest(e -> Platform.exit());
        window.show();
        (account.getText().isBlank() ? account : password).requestFocus();
    }

    /** @return the view's root node */
    public VBox root() {
        return root;
    }

    @FXML
    private void onSignIn() {
        vm.signIn((config, operator) -> {
            if (window != null) {
                window.setOnCloseRequest(null);
                window.close();
            }
            signedIn.accept(config, operator);
        });
    }

    @FXML
    private void onQuit() {
        Platform.exit();
    }
}
