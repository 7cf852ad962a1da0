package com.orderconsole.ui;

import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.ui.common.Background;
import javafx.stage.Stage;

/**
 * Opens the console's pages over serve's API once a person signed in with a remote profile: it builds the remote
 * services from {@link RemoteStart#server()} and {@link RemoteStart#tokens()} and the shell on them, as the local console
 * does on its engine. Called on the JavaFX thread; it must not block (the services are built lazily or in the background).
 */
@FunctionalInterface
public interface RemoteConsole {
    /**
     * @param stage the console's window
     * @param start serve's URL, the person's session (as access tokens) and the environment
     * @param background the console's background work: when the session ends during a call it asks the person to sign in
     *     again and then carries out the call, so the page keeps what they typed
     * @param signOut forgets the tokens and returns to the start page ({@code MainViewModel.setSignOut})
     */
    void open(Stage stage, RemoteStart start, Background background, Runnable signOut);
}
