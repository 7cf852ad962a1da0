package com.orderconsole.store;

/**
 * A statement failed in MySQL for a reason other than a lost connection or a refused privilege (a missing table, a
 * value the column cannot hold...). The message is the server's own words with where it runs, never MyBatis' report
 * ("### Error querying database ... ### SQL: ...") nor a Java class name: it goes to logs and screens as it is.
 */
public class DatabaseFailedException extends RuntimeException {
    public DatabaseFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
