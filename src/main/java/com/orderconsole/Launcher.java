package com.orderconsole;

import com.orderconsole.cli.OrderCli;

/**
 * Entry point of {@code order-console.jar}. With a subcommand it runs the headless command line and
 * exits with its code. (The console, opened when no argument is given, is wired in by the UI branch;
 * here no arguments print the usage.)
 */
public final class Launcher {
    private Launcher() {
    }

    /** @param args command line, e.g. {@code import --csv orders.csv} */
    public static void main(String[] args) {
        System.exit(OrderCli.run(args, System.out, System.err));
    }
}
