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

    /**
     * @param what the work in words, e.g. "the creation"
     * @param tries how many times MySQL rolled it back
     * @param last the last rollback (a deadlock, 1213, or a lock wait that timed out, 1205)
     * @return the failure, in words that say nothing was stored
     */
    public static DatabaseBusyException rolledBack(String what, int tries, Throwable last) {
        boolean deadlock = false;
        for (Throwable t = last; t != null; t = t.getCause()) {
            deadlock |= t instanceof java.sql.SQLException q && q.getErrorCode() == 1213;
        }
        return new DatabaseBusyException("MySQL rolled " + what + " back " + tries + " times: each time it lost a lock conflict "
                + "with other writes (" + (deadlock ? "a deadlock" : "a lock wait over innodb_lock_wait_timeout")
                + "); nothing of it was stored", last);
    }
}
