package com.orderconsole.store;

import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What "no connection to be had" is called in the log and on screen. A hand trial stopped MariaDB with SIGSTOP
 * and maintenance logged the connection pool's own text: "orders-db - Connection is not available, request timed out
 * after 2011ms (total=4, active=4, idle=0, waiting=0)". Here every pooled connection is held (as by statements
 * waiting on a server that does not answer) and one more is asked for.
 */
class UnreachableInWordsTest {
    @Test
    void noConnectionWithinTheTimeoutIsSaidInWordsWithTheWait() throws Exception {
        TestServers.reset();
        ExecutorService holders = Executors.newFixedThreadPool(ConnectionPools.POOL_SIZE);
        CountDownLatch held = new CountDownLatch(ConnectionPools.POOL_SIZE);
        CountDownLatch release = new CountDownLatch(1);
        try (Database db = Database.connect(TestServers.mariaDb().jdbcUrl(), "root", "", Duration.ofSeconds(1))) {
            for (int i = 0; i < ConnectionPools.POOL_SIZE; i++) {
                holders.submit(() -> db.inTransaction(t -> {
                    t.cursors().read(0);
                    held.countDown();
                    try {
                        return release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            assertThat(held.await(20, TimeUnit.SECONDS)).as("every pooled connection held").isTrue();
            Throwable e = catchThrowable(() -> db.read(t -> t.cursors().read(0)));
            release.countDown();
            assertThat(e).isInstanceOf(DatabaseUnavailableException.class);
            assertThat(e.getMessage()).startsWith("MySQL at 127.0.0.1:").contains("no connection within 1.0 s")
                    .contains("all " + ConnectionPools.POOL_SIZE + " in use").doesNotContain("orders-db").doesNotContain("total=")
                    .doesNotContain("Exception");
        } finally {
            release.countDown();
            holders.shutdown();
        }
    }
}
