package com.orderconsole.store;

/**
 * A unit of work that MySQL rolled back whole each time it was tried (a deadlock victim, a lock wait that timed out)
 * until its retries ran out: nothing of it is stored, and sending it again later is safe. The message says so in words.
 */
public class DatabaseBusyException extends RuntimeException {
    /**
     * @param message what was not done, and that nothing of it was stored
     * @param cause the last rollback MySQL reported
     */
    public DatabaseBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
