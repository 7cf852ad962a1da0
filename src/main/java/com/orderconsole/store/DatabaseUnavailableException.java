package com.orderconsole.store;

/** MySQL could not be reached or did not answer; the message names the server (never credentials). */
public class DatabaseUnavailableException extends RuntimeException {
    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
