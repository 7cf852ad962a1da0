package com.orderconsole.ui;

import com.orderconsole.app.ConsoleStart;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.LogFiles;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.Profiles;
import com.orderconsole.app.Settings;
import com.orderconsole.app.Termination;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.ui.common.FxBackground;
import com.orderconsole.ui.common.FxDialogService;
import com.orderconsole.ui.common.Themes;
import com.orderconsole.ui.main.MainView;
import com.orderconsole.ui.main.MainViewModel;
import com.orderconsole.ui.main.StartView;
import com.orderconsole.ui.main.StartViewModel;
import com.orderconsole.ui.profile.ProfilePickerView;
import com.orderconsole.ui.profile.ProfilePickerViewModel;
import com.orderconsole.ui.common.Background;
import com.orderconsole.app.remote.TokenCommand;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.ui.signin.RemoteSignInView;
import com.orderconsole.ui.signin.RemoteSignInViewModel;
import com.orderconsole.ui.signin.SignInAgainDialog;
import com.orderconsole.ui.signin.SignInGuard;
import com.orderconsole.ui.signin.SignInView;
import com.orderconsole.ui.signin.SignInViewModel;
import javafx.application.Application;
import javafx.application.Platform;
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
    /** The environment named on the command line (profile, local or external). */
    private static Environment environment = Environment.LOCAL;
    /** Profiles to offer before anything starts; empty when the command line chose. */
    private static Profiles.Listing choices = new Profiles.Listing(java.util.List.of(), java.util.List.of());
    /** True when this console is the whole process (the launcher's): it handles SIGTERM and writes the log file. */
    private static boolean ownsProcess;
    /** Opens the pages over serve after a remote profile's sign-in; until one is set, the start page says who signed in. */
    private static RemoteConsole remoteConsole;
    /** The remote profile the command line named (--profile), or null. */
    private static Profile remoteProfile;

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
        environment = Environment.LOCAL;
        choices = new Profiles.Listing(java.util.List.of(), java.util.List.of());
    }

    /**
     * Sets how the console's pages open over serve after a remote profile's sign-in. Call before {@code Application.launch}.
     *
     * @param console builds the remote services and the shell on them
     */
    public static void useRemoteConsole(RemoteConsole console) {
        remoteConsole = console;
    }

    /**
     * Marks the next launch as the process's own console (the launcher's, not a test's): it then stops in
     * order on SIGTERM and writes the data directory's log file.
     */
    public static void ownProcess() {
        ownsProcess = true;
    }

    /**
     * Sets what the next launch uses, as the command line decided it. Call before {@code Application.launch}.
     *
     * @param start servers, operator, environment, and the profiles to offer first (if any)
     */
    public static void configure(ConsoleStart start) {
        configure(start.config(), start.operator());
        environment = start.environment();
        choices = start.choices();
        remoteProfile = start.remote();
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
        if (ownsProcess) {
            // SIGTERM closes the window's engine in order (jobs, pools, servers) instead of killing MariaDB under it.
            Termination.onTerminate(Platform::exit);
        }
        background = new FxBackground(4);
        StartViewModel starting = new StartViewModel(background);
        StartView splash = new StartView(starting, operator == null ? Messages.get("main.signingIn") : MainViewModel.operatorText(operator));
        stage.setTitle(Messages.get("main.title"));
        stage.setScene(styledScene(splash.root(), 560, 320));
        stage.show();
        if (remoteProfile != null) {
            openRemoteProfile(stage, remoteProfile);
            return;
        }
        if (!choices.empty()) {
            // No servers named on the command line and profiles exist: the operator chooses where to work first.
            java.util.Optional<ProfilePickerViewModel.Choice> picked = new ProfilePickerView(new ProfilePickerViewModel(choices)).open(stage);
            if (picked.isEmpty()) {
                Platform.exit();
                return;
            }
            Profile p = picked.get().profile();
            environment = picked.get().environment();
            if (p != null && p.remote()) {
                // Remote mode: no engine, no store; the person signs in with the company's identity provider first.
                openRemoteProfile(stage, p);
                return;
            }
            if (p != null) {
                String password = p.passwordEnv() == null ? "" : java.util.Objects.requireNonNullElse(System.getenv(p.passwordEnv()), "");
                try {
                    config = p.apply(config, password);
                } catch (IllegalArgumentException e) {
                    // e.g. the Redis password variable is not set: nothing has started; say so and stop.
                    new FxDialogService(() -> stage, environment).inform(Messages.get("profile.picker.title"), p.name(), e.getMessage());
                    Platform.exit();
                    return;
                }
            }
        }
        if (ownsProcess) {
            LogFiles.install(config.dataDir());
        }
        stage.setTitle(FxDialogService.title(environment, Messages.get("main.title")));
        // Against external servers the operator signs in with their database account first; locally at once.
        SignInViewModel signIn = new SignInViewModel(config, background, environment.production());
        BiConsumer<EngineConfig, Operator> then = (signedConfig, signedIn) -> start(stage, starting, signedConfig);
        signIn.begin(then, () -> new SignInView(signIn, environment).open(stage, then));
    }

    private void start(Stage stage, StartViewModel starting, EngineConfig signedConfig) {
        starting.start(signedConfig, environment, (started, note) -> {
            if (stopped) {
                // The window was closed while the engine was still starting: nobody else will close it.
                started.close();
                return;
            }
            engine = started;
            // Who the command line signed in (a role it may have lowered), else whom the engine's sign-in vouched for.
            Operator who = operator != null ? operator : engine.operator();
            stage.setTitle(FxDialogService.title(environment, Messages.format("main.title.operator", MainViewModel.operatorText(who))));
            MainViewModel vm = new MainViewModel(new ConsoleContext(engine.services(), who, background,
                    new FxDialogService(() -> stage, environment), environment), settings);
            if (ownsProcess) {
                // HostServices asks the desktop to open the folder; the model calls it off the UI thread.
                vm.setLogFolder(LogFiles.dir(signedConfig.dataDir()).toAbsolutePath(),
                        folder -> getHostServices().showDocument(folder.toUri().toString()));
            }
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

    /**
     * A remote profile: no engine, no store. With an issuer the start page signs the person in; with a token command
     * the command's token opens the pages at once (it is run again when serve refuses its token; Sign out closes).
     */
    private void openRemoteProfile(Stage stage, Profile p) {
        environment = p.environment();
        stage.setTitle(FxDialogService.title(environment, Messages.get("main.title")));
        if (p.signsInWithIssuer()) {
            showRemoteSignIn(stage, RemoteSignInViewModel.forProfile(p, background));
            return;
        }
        TokenCommand tokens = new TokenCommand(p.tokenCommand(), System.err);
        openServe(stage, new RemoteStart(p.server(), tokens, environment), background, () -> {
            tokens.signOut();
            Platform.exit();
        });
    }

    /** The start page of a remote profile: "Sign in with ..." in the system browser, then the pages over serve. */
    private void showRemoteSignIn(Stage stage, RemoteSignInViewModel signIn) {
        RemoteSignInView view = new RemoteSignInView(signIn, start -> openRemote(stage, signIn, start), Platform::exit,
                Messages.get("remote.signin.quit"));
        stage.setScene(styledScene(view.root(), 560, 360));
        stage.centerOnScreen();
        view.focus();
    }

    private void openRemote(Stage stage, RemoteSignInViewModel signIn, RemoteStart start) {
        SignInGuard guarded = new SignInGuard(background, start.tokens(), new SignInAgainDialog(signIn, () -> stage));
        Runnable signOut = () -> {
            // The tokens go first, so nothing sent after this moment carries them; then back to the start page.
            start.tokens().signOut();
            if (mainView != null) {
                mainView.stop();
                mainView = null;
            }
            showRemoteSignIn(stage, signIn);
        };
        if (remoteConsole != null) {
            remoteConsole.open(stage, start, guarded, signOut);
            return;
        }
        openServe(stage, start, guarded, signOut);
    }

    /**
     * The console's pages over serve: who acts (name and role for the band) is what serve says the token acts as
     * ({@code GET /v1/me}); every page's background work goes through {@code background}, so an ended session asks to
     * sign in again and the page keeps what was typed.
     */
    private void openServe(Stage stage, RemoteStart start, Background background, Runnable signOut) {
        StartViewModel starting = new StartViewModel(background);
        stage.setScene(styledScene(new StartView(starting, Messages.get("main.signingIn")).root(), 560, 320));
        starting.startRemote(start, (services, who) -> {
            if (stopped) {
                return;
            }
            stage.setTitle(FxDialogService.title(start.environment(),
                    Messages.format("main.title.operator", MainViewModel.operatorText(who))));
            MainViewModel vm = new MainViewModel(new ConsoleContext(services, who, background,
                    new FxDialogService(() -> stage, start.environment()), start.environment()), settings);
            vm.setSignOut(signOut);
            vm.statusBar().noticeProperty().set(String.join(" · ", settings.problems()));
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
