package com.orderconsole.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * A multi-row statement of the MySQL follower's batch path ({@code head (row), (row), … tail}), run in plain
 * JDBC on the unit of work's connection, {@link #chunk} rows at a time.
 *
 * <p>Why not MyBatis here, as everywhere else: a follower batch binds about 28,000 values (2,000 history rows
 * of 10 columns and 2,000 order rows of 4). MyBatis' {@code <foreach>} rebuilds the statement text on each
 * call and resolves every value through its property tokenizer and reflection; with the driver re-parsing
 * that fresh text, the follower spent about as much CPU per change in the JVM as MariaDB spent applying it
 * (~40 µs each; 63 % of the follower threads' samples in MyBatis, 19 % in the driver's statement parsing;
 * docs/benchmarks-history.md, third pass: the follower). Here the text of a full chunk is built once (the driver caches its
 * parse per connection) and every value is bound directly from the record; the SQL stays in the store that
 * owns the table, and everything else keeps its MyBatis mapper.
 */
final class MultiRowSql {
    /** Binds one row's values from {@code first}; @return the next parameter index */
    @FunctionalInterface
    interface Binder<T> {
        int bind(PreparedStatement ps, int first, T row) throws SQLException;
    }

    private final String head;
    private final String firstRow;
    private final String row;
    private final String separator;
    private final String tail;
    private final int chunk;
    private final String fullChunk;

    /**
     * @param head the statement up to the first row
     * @param firstRow the first row, with its {@code ?} placeholders (where a derived table names its columns)
     * @param row every further row
     * @param separator between rows
     * @param tail after the last row
     * @param chunk rows per statement; the statement text of a full chunk is built once
     */
    MultiRowSql(String head, String firstRow, String row, String separator, String tail, int chunk) {
        this.head = head;
        this.firstRow = firstRow;
        this.row = row;
        this.separator = separator;
        this.tail = tail;
        this.chunk = chunk;
        this.fullChunk = text(chunk);
    }

    /** @return the statement text for {@code rows} rows */
    String text(int rows) {
        if (rows == chunk && fullChunk != null) {
            return fullChunk;
        }
        StringBuilder sb = new StringBuilder(head.length() + tail.length() + rows * (row.length() + separator.length()));
        sb.append(head);
        for (int i = 0; i < rows; i++) {
            if (i > 0) {
                sb.append(separator);
            }
            sb.append(i == 0 ? firstRow : row);
        }
        return sb.append(tail).toString();
    }

    /**
     * Runs the statement over all rows, {@link #chunk} at a time, in the caller's transaction.
     *
     * @return the sum of the update counts
     * @throws IllegalStateException wrapping the driver's SQLException (the error code stays reachable as its cause)
     */
    <T> int run(Connection c, List<T> rows, Binder<? super T> binder, String what) {
        int changed = 0;
        for (int i = 0; i < rows.size(); i += chunk) {
            List<T> part = rows.subList(i, Math.min(rows.size(), i + chunk));
            try (PreparedStatement ps = c.prepareStatement(text(part.size()))) {
                ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
                int p = 1;
                for (T r : part) {
                    p = binder.bind(ps, p, r);
                }
                changed += ps.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
            }
        }
        return changed;
    }
}
