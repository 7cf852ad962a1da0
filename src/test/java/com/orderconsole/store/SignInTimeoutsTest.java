package com.orderconsole.store;

import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Connection and sign-in timeouts tell a refused or unreachable server from a slow one: a port where nothing listens fails
 * at once, in words that say so; a server that accepts the connection but answers the sign-in slowly (a busy host) is
 * waited for rather than reported as not answering after the connect timeout.
 */
class SignInTimeoutsTest {
    private static String urlOnPort(int port) {
        return TestServers.mariaDb().jdbcUrl().replace(":" + TestServers.mariaDb().port() + "/", ":" + port + "/");
    }

    @Test
    void aRefusedConnectionFailsFastInWords() throws Exception {
        int dead;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = probe.getLocalPort();
        }
        long t0 = System.nanoTime();
        Throwable e = catchThrowable(() -> Database.connect(urlOnPort(dead), "root", "", Duration.ofSeconds(5)).close());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(e).isInstanceOf(DatabaseUnavailableException.class);
        assertThat(e.getMessage()).startsWith("MySQL at 127.0.0.1:" + dead).contains("refused the connection")
                .contains("nothing listens").doesNotContain("did not answer").doesNotContain("Exception");
        assertThat(ms).as("not the 5 s timeout").isLessThan(3_000);
    }

    @Test
    void aSlowSignInIsWaitedForNotCalledUnanswered() throws Exception {
        TestServers.reset();
        try (StallingProxy proxy = new StallingProxy("slow-mariadb", TestServers.mariaDb().port())) {
            proxy.stall(true); // the connection is accepted; the server's greeting comes 3 s later
            Thread resume = new Thread(() -> {
                try {
                    Thread.sleep(3_000);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
                proxy.stall(false);
            });
            resume.start();
            long t0 = System.nanoTime();
            try (Database db = Database.connect(urlOnPort(proxy.port()), "root", "", Duration.ofSeconds(2))) {
                java.util.List<String> missing = db.read(t -> t.orders().missing(java.util.List.of("nope")));
                assertThat(missing).containsExactly("nope");
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("[measured] sign-in through a 3 s stall with a 2 s timeout: " + ms + " ms");
            assertThat(ms).isGreaterThanOrEqualTo(2_500);
            resume.join();
        }
    }
}
