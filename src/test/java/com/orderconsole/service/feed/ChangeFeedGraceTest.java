package com.orderconsole.service.feed;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.TestServers;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryStore;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The change feed's fallback at the unit level, on the shared test MariaDB: when the writers' marks cannot be read (a
 * database without them) a gap passes once its grace is over, not before; with them it passes at once. The slow twin on
 * a server that checks accounts, under serve's account, is {@code FeedGapWithoutProcessTest}.
 */
class ChangeFeedGraceTest {
    private static final Duration GRACE = Duration.ofSeconds(1);

    /** Inserts a history row in the open transaction of {@code c}. */
    private static void insert(Connection c, String orderId) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, "
                    + "at_ms, event_key) VALUES ('" + orderId + "', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/" + orderId + "')");
        }
    }

    /** Writes a history row and commits it as the engine's writers do (the mark set back last). */
    private static void committed(Connection c, String orderId) throws SQLException {
        insert(c, orderId);
        try (Statement st = c.createStatement()) {
            st.executeUpdate(HistoryStore.WRITES_DONE);
        }
        c.commit();
    }

    private static List<String> orders(ChangeFeed.Page page) {
        return page.events().stream().map(e -> e.entry().orderId()).toList();
    }

    @Test
    void withTheTransactionListRefusedAGapPassesOnceItsGraceIsOver() throws Exception {
        TestServers.reset();
        String url = TestServers.mariaDb().jdbcUrl();
        Logger logger = (Logger) LoggerFactory.getLogger(ChangeFeed.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try (Database db = Database.connect(url, "root", "", Duration.ofSeconds(10));
             Connection c = DriverManager.getConnection(url, "root", "")) {
            c.setAutoCommit(false);
            committed(c, "a-1");
            insert(c, "gone-1");
            c.rollback();
            committed(c, "b-1");

            // What HistoryStore answers when the writers' marks cannot be read (no table, or access denied).
            ChangeFeed feed = new ChangeFeed(db, GRACE, h -> new HistoryStore.OpenTransactions(true, Set.of()));
            long firstSight = System.nanoTime();
            ChangeFeed.Page p = feed.read(null, 10);
            assertThat(orders(p)).containsExactly("a-1");
            String atGap = p.cursor();
            while (p.events().isEmpty() || orders(p).equals(List.of("a-1"))) {
                assertThat(p.cursor()).isEqualTo(atGap);
                assertThat(p.heldBy()).isNull();
                assertThat(System.nanoTime() - firstSight).as("the gap is passed once its grace is over").isLessThan(GRACE.toNanos() + 3_000_000_000L);
                Thread.sleep(20);
                p = feed.read(atGap, 10);
            }
            double passedAfter = (System.nanoTime() - firstSight) / 1e9;
            assertThat(orders(p)).containsExactly("b-1");
            assertThat(passedAfter).isGreaterThanOrEqualTo(GRACE.toNanos() / 1e9).isLessThan(GRACE.toSeconds() + 1.0);

            // The same gap, read by a feed that reads the writers' marks (none is at work): passed well within serve's grace.
            ChangeFeed listing = new ChangeFeed(db, ChangeFeed.DEFAULT_GAP_GRACE);
            long t0 = System.nanoTime();
            ChangeFeed.Page q = listing.read(atGap, 10);
            while (q.events().isEmpty() && System.nanoTime() - t0 < 3_000_000_000L) {
                Thread.sleep(20);
                q = listing.read(atGap, 10);
            }
            assertThat(orders(q)).containsExactly("b-1");

            // A writer that never sets its mark back (SQL by hand, in auto-commit): its mark stays, and a gap seen while it
            // stays passes only once its grace is over, never sooner.
            try (Connection byHand = DriverManager.getConnection(url, "root", "")) {
                insert(byHand, "by-hand-1");
            }
            insert(c, "gone-2");
            c.rollback();
            committed(c, "c-1");
            ChangeFeed marked = new ChangeFeed(db, GRACE);
            String beforeGap = q.cursor();
            long t1 = System.nanoTime();
            ChangeFeed.Page r = marked.read(beforeGap, 10);
            assertThat(orders(r)).containsExactly("by-hand-1");
            while (!orders(r).contains("c-1") && System.nanoTime() - t1 < GRACE.toNanos() + 3_000_000_000L) {
                Thread.sleep(20);
                r = marked.read(r.cursor(), 10);
            }
            assertThat(orders(r)).containsExactly("c-1");
            assertThat((System.nanoTime() - t1) / 1e9).isGreaterThanOrEqualTo(GRACE.toNanos() / 1e9);
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().contains("history_writer")).count())
                .as(logged.list.toString()).isEqualTo(1);
    }
}
