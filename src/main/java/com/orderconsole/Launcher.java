package com.orderconsole;

import com.orderconsole.cli.OrderCli;
import com.orderconsole.ui.OrderConsoleApp;
import javafx.application.Application;

/**
 * Entry point of {@code order-console.jar} and of {@code mvn javafx:run}. Without a subcommand it opens
 * the console (embedded servers by default, or those named by {@code --redis}/{@code --jdbc}); with one it
 * runs the headless command line and exits with its code.
 *
 * <p>A plain class, not the Application itself: launching an Application subclass as the main class
 * from the classpath fails with "JavaFX runtime components are missing".
 */
public final class Launcher {
    private Launcher() {
    }

    /** @param args command line, e.g. {@code import --csv orders.csv}, or none for the console */
    public static void main(String[] args) {
        int code = OrderCli.runConsole(args, System.out, System.err, start -> {
            OrderConsoleApp.configure(start);
            OrderConsoleApp.ownProcess();
            Application.launch(OrderConsoleApp.class);
        });
        System.exit(code);
    }
}
