package com.orderconsole.ui;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Settings;
import com.orderconsole.domain.Operator;
import com.orderconsole.ui.common.FxBackground;
import com.orderconsole.ui.common.FxDialogService;
import com.orderconsole.ui.common.Themes;
import com.orderconsole.ui.main.MainView;
import com.orderconsole.ui.main.MainViewModel;
import com.orderconsole.ui.main.StartView;
import com.orderconsole.ui.main.StartViewModel;
import com.orderconsole.ui.signin.SignInView;
import com.orderconsole.ui.signin.SignInViewModel;
import javafx.application.Application;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The console application. The launcher calls {@link #configure} and then {@code Application.launch}.
 * The engine starts in a background task behind a splash, followed on a first start by the import of
 * the bundled Olist sample; the window never waits on a server.
 */
public class OrderConsoleApp extends Application {
    private static EngineConfig config = EngineConfig.embeddedDefault();
    /** Who was vouched for on the command line, or null when the sign-in dialog asks. */
    private static Operator operator;

    private Engine engine;
    private FxBackground background;
    private MainView mainView;
    private boolean stopped;

    /**
     * Sets what the next launch uses. Call before {@code Application.launch}.
     *
     * @param engineConfig servers and tuning; null for {@link EngineConfig#embeddedDefault()}
     * @param who who the command line signed in, or null when the sign-in dialog asks (external servers) or the
     *     local machine vouches (embedded servers)
     */
    public static void configure(EngineConfig engineConfig, Operator who) {
        config = engineConfig == null ? EngineConfig.embeddedDefault() : engineConfig;
        operator = who;
    }


    /**
     * Applies the console's look to a scene: the AtlantaFX Primer theme in use (light or dark, see
     * {@link Themes}) plus styles/app.css. Tests use it too, so they see what users see. atlantafx-base is
     * pinned to 2.0.1, the last release built for Java 17 (2.1.0 is Java 21 bytecode).
     *
     * @param root the scene's root
     * @return a scene with the stylesheets applied
     */
    public static Scene styledScene(Parent root, double width, double height) {
        return Themes.styledScene(root, width, height);
    }

    /** Read off the JavaFX thread, before the first window: the theme of the splash already follows it. */
    private Settings settings;

    @Override
    public void init() {
        settings = Settings.load();
    }

    @Override
    public void start(Stage stage) {
        Themes.apply(settings.theme());
        background = new FxBackground(4);
        StartViewModel starting = new StartViewModel(background);
        StartView splash = new StartView(starting, operator == null ? Messages.get("main.signingIn") : MainViewModel.operatorText(operator));
        stage.setTitle(Messages.get("main.title"));
        stage.setScene(styledScene(splash.root(), 560, 320));
        stage.show();
        // Against external servers the operator signs in with their database account first; locally at once.
        SignInViewModel signIn = new SignInViewModel(config, background);
        BiConsumer<EngineConfig, Operator> then = (signedConfig, signedIn) -> start(stage, starting, signedConfig);
        signIn.begin(then, () -> new SignInView(signIn).open(stage, then));
    }

    private void start(Stage stage, StartViewModel starting, EngineConfig signedConfig) {
        starting.start(signedConfig, (started, note) -> {
            if (stopped) {
                // The window was closed while the engine was still starting: nobody else will close it.
                started.close();
                return;
            }
            engine = started;
            // Who the command line signed in (a role it may have lowered), else whom the engine's sign-in vouched for.
            Operator who = operator != null ? operator : engine.operator();
            stage.setTitle(Messages.format("main.title.operator", MainViewModel.operatorText(who)));
            MainViewModel vm = new MainViewModel(new ConsoleContext(engine.services(), who, background,
                    new FxDialogService(() -> stage)), settings);
            // A damaged settings file does not stop the console; the status bar says what was ignored.
            List<String> notices = new ArrayList<>(settings.problems());
            if (note != null && !note.isEmpty()) {
                notices.add(0, note);
            }
            vm.statusBar().noticeProperty().set(String.join(" · ", notices));
            mainView = new MainView(vm);
            stage.setScene(styledScene(mainView.root(), 1280, 800));
            stage.centerOnScreen();
            mainView.start();
        });
    }

    @Override
    public void stop() {
        stopped = true;
        if (mainView != null) {
            mainView.stop();
        }
        if (background != null) {
            background.close();
        }
        if (engine != null) {
            engine.close();
        }
    }
}
