package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * Which connections are writing history right now, readable without any global privilege: the change feed passes a gap
 * in the history's ids once every writer that may hold one of its ids has finished writing (the list of open transactions
 * in {@code information_schema.INNODB_TRX} needs PROCESS, which serve's account does not hold).
 *
 * <p>{@code history_writer} has one row per connection that ever wrote history: {@code open} is 1 while a transaction of
 * that connection is writing history, and {@code seq} counts its transactions. A BEFORE INSERT trigger on
 * {@code order_history} sets {@code open = 1} (a new {@code seq} when it was 0) before InnoDB hands the row its id, so
 * every writer whatever its code (a follower, a procedure, SQL by hand) is marked before it holds an id; the engine's
 * writers set it back to 0 as the last statement before their commit ({@code Tables}); a rollback undoes the mark with
 * the rows. The feed reads the marks at READ UNCOMMITTED, where a mark is visible as soon as it is set. A writer that
 * never sets its mark back (SQL by hand) leaves it at 1: the feed then waits out its time grace, never less.
 *
 * <p>Each connection touches only its own row by its primary key, so the marks take no gap lock and never make writers
 * wait on each other; people's roles may update the table (their procedures write history), nobody deletes from it.
 */
public class V47__History_writers extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE history_writer ("
                    + " connection_id BIGINT UNSIGNED NOT NULL,"
                    + " open          TINYINT NOT NULL,"
                    + " seq           BIGINT NOT NULL,"
                    + " PRIMARY KEY (connection_id)"
                    + ") ENGINE = InnoDB");
            createTrigger(st);
        }
        ConsoleRoles.createAndGrant(context.getConnection());
    }

    /** The marking trigger, made anew (also by {@link RemakeRoutines}, under the account that runs migrate). */
    static void createTrigger(Statement st) throws java.sql.SQLException {
        st.execute("DROP TRIGGER IF EXISTS order_history_writer_open");
        // No read first: a read in a trigger of an INSERT is a locking read, and on a connection's first mark (no row yet)
        // it would lock the gap where other connections' rows go. An INSERT … ON DUPLICATE KEY UPDATE of the connection's
        // own key locks that row only; a transaction's later rows set the same values again. The assignments run left to
        // right, so seq sees the mark as it was.
        st.execute("CREATE TRIGGER order_history_writer_open BEFORE INSERT ON order_history FOR EACH ROW "
                + "INSERT INTO history_writer (connection_id, open, seq) VALUES (CONNECTION_ID(), 1, 1) "
                + "ON DUPLICATE KEY UPDATE seq = IF(open = 1, seq, seq + 1), open = 1");
    }

    @Override
    public boolean canExecuteInTransaction() {
        // CREATE TABLE, CREATE TRIGGER and GRANT commit implicitly.
        return false;
    }
}
