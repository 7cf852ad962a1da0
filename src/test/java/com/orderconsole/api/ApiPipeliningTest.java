package com.orderconsole.api;

import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transition is answered on the thread that brings Redis' reply, not on the one that read the request (issue 32's
 * throughput). What a client relies on must not change with that: requests sent back to back on one connection are
 * answered in order, each once, and a transition whose body comes after its headers is taken as if it had come at once.
 */
class ApiPipeliningTest {
    private ApiHarness h;
    private String token;

    @BeforeEach
    void start() throws Exception {
        h = ApiHarness.fresh();
        token = h.client("payments", Role.SUPPORT);
        assertThat(h.post(token, "/v1/orders", "{\"id\": \"P-1\", \"paymentTimeout\": \"30m\"}").statusCode()).isEqualTo(201);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private String move(String to) {
        String body = "{\"to\": \"" + to + "\"}";
        return "POST /v1/orders/P-1/transitions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    @Test
    void requestsSentBackToBackOnOneConnectionAreAnsweredInOrder() throws Exception {
        String show = "GET /v1/orders/P-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n\r\n";
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), h.api.port())) {
            s.setSoTimeout(20_000);
            // One write: Jetty finds the next request already read when the first answer is written.
            s.getOutputStream().write((move("PAID") + move("WAIT_SHIP") + show + move("PAID")).getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            List<String> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                answers.add(RawHttp.readOne(in));
            }
            assertThat(answers.get(0)).startsWith("HTTP/1.1 200").contains("\"to\":\"PAID\"", "\"version\":2");
            assertThat(answers.get(1)).startsWith("HTTP/1.1 200").contains("\"to\":\"WAIT_SHIP\"", "\"version\":3");
            assertThat(answers.get(2)).startsWith("HTTP/1.1 200").contains("\"status\":\"WAIT_SHIP\"");
            assertThat(answers.get(3)).startsWith("HTTP/1.1 409").contains("\"result\":\"NOT_ALLOWED\"");
        }
    }

    @Test
    void aTransitionWhoseBodyComesLaterIsTakenAsIfItHadComeAtOnce() throws Exception {
        String request = move("PAID");
        int split = request.indexOf("\r\n\r\n") + 4;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), h.api.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(request.substring(0, split).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(300);
            out.write(request.substring(split).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(RawHttp.readOne(s.getInputStream())).startsWith("HTTP/1.1 200").contains("\"version\":2");
        }
    }
}
