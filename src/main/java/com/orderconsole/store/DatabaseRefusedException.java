package com.orderconsole.store;

/**
 * The database refused a statement to the signed-in account: its roles do not grant it (e.g. UPDATE on
 * the append-only history). The message names the statement kind, the table and the account.
 */
public class DatabaseRefusedException extends RuntimeException {
    public DatabaseRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
