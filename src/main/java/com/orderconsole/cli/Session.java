package com.orderconsole.cli;

/**
 * What one command works on, and how it ends: in local mode the in-process services of an engine this command started
 * (closing stops it). Commands reach orders only through {@link CliCommand#session()} and
 * {@link CliCommand#auditSession()}, the one place that decides where the services run.
 *
 * @param services the service layer, e.g. {@link com.orderconsole.app.ConsoleServices}
 * @param closing ends what was started for the command; runs once, on {@link #close()}
 * @param <T> the services' type
 */
record Session<T>(T services, Runnable closing) implements AutoCloseable {
    @Override
    public void close() {
        closing.run();
    }
}
