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
 * The change feed's fallback at the unit level, on the shared test MariaDB: when the open transactions may not be listed
 * (as MySQL answers an account without PROCESS, serve's in production) a gap passes once its grace is over, not before.
 * The slow twin on a server that checks accounts is {@code FeedGapWithoutProcessTest}.
 */
class ChangeFeedGraceTest {
    private static final Duration GRACE = Duration.ofSeconds(1);

    private static void insert(Connection c, String orderId) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, "
                    + "at_ms, event_key) VALUES ('" + orderId + "', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/" + orderId + "')");
        }
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
            insert(c, "a-1");
            c.setAutoCommit(false);
            insert(c, "gone-1");
            c.rollback();
            c.setAutoCommit(true);
            insert(c, "b-1");

            // What HistoryStore answers when MySQL refuses INNODB_TRX (error 1227).
            ChangeFeed feed = new ChangeFeed(db, GRACE, h -> new HistoryStore.OpenTransactions(true, false, Set.of()));
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

            // The same gap, read by a feed that may list the transactions (nothing is open): passed well within serve's grace.
            ChangeFeed listing = new ChangeFeed(db, ChangeFeed.DEFAULT_GAP_GRACE);
            long t0 = System.nanoTime();
            ChangeFeed.Page q = listing.read(atGap, 10);
            while (q.events().isEmpty() && System.nanoTime() - t0 < 3_000_000_000L) {
                Thread.sleep(20);
                q = listing.read(atGap, 10);
            }
            assertThat(orders(q)).containsExactly("b-1");
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().contains("PROCESS")).count())
                .as(logged.list.toString()).isEqualTo(1);
    }
}
