package com.orderconsole.api;

import com.orderconsole.Slow;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * serve stopping under load (the fresh-user tester's SIGTERM with 64 payments in flight: every one lost its answer, and 58
 * of them had been applied). A request the API took is answered before the connections close; one that comes meanwhile
 * is refused in words; so no move is applied without an answer saying so.
 */
@Slow
class ApiGracefulStopTest {
    private static final int CLIENTS = 32;
    private static final int ORDERS_EACH = 400;
    private ApiHarness h;
    private String token;

    @BeforeEach
    void start() {
        h = ApiHarness.fresh();
        token = h.client("payments", Role.SUPPORT);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    @Test
    void everyMoveAppliedWhileTheApiStopsIsAnswered() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            for (int i = 0; i < ORDERS_EACH; i++) {
                ids.add("G-" + c + "-" + i);
            }
        }
        ids.parallelStream().forEach(id -> h.engine.services().orders().create(h.engine.operator(), id, null,
                java.time.Duration.ofMinutes(30), "test"));
        Map<String, String> answers = new ConcurrentHashMap<>(); // id -> status line, or "none: ..." when none came
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(CLIENTS);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                running.countDown();
                for (int i = 0; i < ORDERS_EACH && !stopped.get(); i++) {
                    String id = "G-" + client + "-" + i;
                    answers.put(id, pay(id));
                }
            });
            t.start();
            clients.add(t);
        }
        running.await();
        Thread.sleep(700); // payments flowing
        long t0 = System.nanoTime();
        h.api.close();
        long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        stopped.set(true);
        for (Thread t : clients) {
            t.join(20_000);
        }

        int applied = 0;
        int refused = 0;
        List<String> unanswered = new ArrayList<>();
        for (Map.Entry<String, String> a : answers.entrySet()) {
            OrderStatus now = h.engine.services().orders().lookupInRedis(a.getKey()).summary().redisStatus();
            String answer = a.getValue();
            if (answer.startsWith("HTTP/1.1 200")) {
                applied++;
                assertThat(now).as(a.getKey() + " answered " + answer).isEqualTo(OrderStatus.PAID);
            } else if (answer.startsWith("HTTP/1.1 503")) {
                refused++;
                assertThat(now).as(a.getKey() + " answered " + answer).isEqualTo(OrderStatus.WAIT_PAY);
            } else if (answer.startsWith("none")) {
                // Never taken: the connection was refused or reset before the API read the request.
                if (now != OrderStatus.WAIT_PAY) {
                    unanswered.add(a.getKey() + " (" + answer + ")");
                }
            } else {
                throw new AssertionError(a.getKey() + " answered " + answer);
            }
        }
        assertThat(unanswered).as("moves applied with no answer").isEmpty();
        assertThat(applied).isPositive();
        assertThat(stopMs).as("stop took").isLessThan(ApiServer.STOP_TIMEOUT.toMillis() + 2_000);
        System.out.printf("graceful stop: %d ms; %d applied and answered, %d refused 503, %d never taken%n", stopMs, applied,
                refused, answers.size() - applied - refused);
    }

    @Test
    void aRequestTakenIsFinishedAndOneThatComesWhileStoppingIsRefusedInWords() throws Exception {
        for (String id : List.of("S-1", "S-2")) {
            h.engine.services().orders().create(h.engine.operator(), id, null, java.time.Duration.ofMinutes(30), "test");
        }
        String body = "{\"to\": \"PAID\"}";
        try (Socket taken = new Socket(InetAddress.getLoopbackAddress(), h.api.port());
             Socket other = new Socket(InetAddress.getLoopbackAddress(), h.api.port())) {
            taken.setSoTimeout(20_000);
            other.setSoTimeout(20_000);
            // Another client's keep-alive connection, open before the stop.
            other.getOutputStream().write(get("/health/live").getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readOne(other.getInputStream())).startsWith("HTTP/1.1 200");
            // A payment whose body is still on its way: taken, not finished, when the stop begins.
            taken.getOutputStream().write(head("S-1", body.length()).getBytes(StandardCharsets.US_ASCII));
            taken.getOutputStream().flush();
            Thread.sleep(200);
            Thread stopping = new Thread(h.api::close);
            stopping.start();
            Thread.sleep(300);
            assertThat(stopping.isAlive()).as("the stop waits for the payment it took").isTrue();

            other.getOutputStream().write((head("S-2", body.length()) + body).getBytes(StandardCharsets.US_ASCII));
            String refused = RawHttp.readOne(other.getInputStream());
            assertThat(refused).startsWith("HTTP/1.1 503").contains("this serve is stopping", "nothing was done", "Retry-After");

            taken.getOutputStream().write(body.getBytes(StandardCharsets.US_ASCII));
            taken.getOutputStream().flush();
            assertThat(RawHttp.readOne(taken.getInputStream())).startsWith("HTTP/1.1 200").contains("\"to\":\"PAID\"");
            stopping.join(ApiServer.STOP_TIMEOUT.toMillis() + 2_000);
            assertThat(stopping.isAlive()).isFalse();
        }
        assertThat(h.engine.services().orders().lookupInRedis("S-1").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(h.engine.services().orders().lookupInRedis("S-2").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    private String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    private String head(String id, int length) {
        return "POST /v1/orders/" + id + "/transitions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n";
    }

    /** One payment on a connection of its own: the status line, or "none: why" when no answer came. */
    private String pay(String id) {
        String body = "{\"to\": \"PAID\"}";
        String request = "POST /v1/orders/" + id + "/transitions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), h.api.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int ch = in.read(); ch >= 0 && ch != '\r'; ch = in.read()) {
                line.append((char) ch);
            }
            return line.length() == 0 ? "none: the connection closed with no answer" : line.toString();
        } catch (ConnectException e) {
            return "none: refused";
        } catch (IOException e) {
            return "none: " + e.getMessage();
        }
    }
}
