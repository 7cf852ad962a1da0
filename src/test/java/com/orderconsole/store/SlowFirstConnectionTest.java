package com.orderconsole.store;

import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 33: concurrent CLI commands on a loaded machine failed their start because MySQL handed out the first
 * connection after the pool's 2 s wait. A server that accepts and is slow to sign in is waited for; the first
 * connection here comes 3 s late, through a proxy that holds the server's greeting back.
 */
class SlowFirstConnectionTest {
    @Test
    void aServerSlowToSignInIsWaitedForAtStart() throws Exception {
        TestServers.start();
        int target = TestServers.mariaDb().port();
        try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!proxy.isClosed()) {
                    try {
                        Socket in = proxy.accept();
                        Thread t = new Thread(() -> relayLate(in, target));
                        t.setDaemon(true);
                        t.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String url = TestServers.mariaDb().jdbcUrl().replace(":" + target + "/", ":" + proxy.getLocalPort() + "/");
            try (Database db = Database.connect(url, "root", "", Duration.ofSeconds(2))) {
                assertThat(db.ping()).isTrue();
            }
        }
    }

    /** Connects to the server 3 s after the client connected, then copies both ways. */
    private static void relayLate(Socket in, int port) {
        try (in; Socket out = new Socket(InetAddress.getLoopbackAddress(), port)) {
            Thread.sleep(3000);
            Thread back = new Thread(() -> copy(out, in));
            back.setDaemon(true);
            back.start();
            copy(in, out);
            back.join();
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    private static void copy(Socket from, Socket to) {
        try {
            InputStream i = from.getInputStream();
            OutputStream o = to.getOutputStream();
            i.transferTo(o);
            to.shutdownOutput();
        } catch (IOException e) {
            // closed
        }
    }
}
