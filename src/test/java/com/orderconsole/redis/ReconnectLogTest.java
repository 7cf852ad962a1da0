package com.orderconsole.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a Redis outage the log says that Redis is back (a new-user trial found nothing: Lettuce reconnects
 * silently). Redis "goes down" behind a proxy that closes every connection and refuses new ones, so the
 * shared test Redis keeps running; Lettuce's own reconnects and events do the rest.
 */
class ReconnectLogTest {
    @Test
    void aReEstablishedConnectionIsOneInfoLineAndAFirstConnectionNone() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(ReconnectLog.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port());
             RedisConnection redis = RedisConnector.connect("redis://127.0.0.1:" + proxy.port(), Duration.ofSeconds(2));
             RedisConnection sweeper = redis.separate()) {
            assertThat(redis.ping() && sweeper.ping()).isTrue();
            assertThat(logged.list).as("a first connection is no reconnect").isEmpty();

            proxy.down(true);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !redis.ping());
            Thread.sleep(1500); // a few reconnect attempts fail meanwhile
            proxy.down(false);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> redis.ping() && sweeper.ping());
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> logged.list.stream().anyMatch(e -> e.getLevel() == Level.INFO));
            Thread.sleep(500); // the second connection's events, which must not log again

            String where = "127.0.0.1:" + proxy.port();
            String shown = logged.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).collect(Collectors.joining("\n"));
            List<ILoggingEvent> back = logged.list.stream().filter(e -> e.getLevel() == Level.INFO).toList();
            assertThat(back).as("one line for both connections: " + shown).hasSize(1);
            assertThat(back.get(0).getFormattedMessage()).contains("Redis at " + where + " is reachable again")
                    .containsPattern("re-established after \\d+ s");
            assertThat(logged.list.stream().filter(e -> e.getLevel() == Level.WARN)).as(shown).singleElement()
                    .satisfies(e -> assertThat(e.getFormattedMessage()).contains("lost the connection to Redis at " + where));
            assertThat(logged.list).as(shown).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
        } finally {
            logger.detachAppender(logged);
        }
    }
}
