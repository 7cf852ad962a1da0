package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies that do not arrive as declared, as the fresh-user tester sent them: one cut short, and hundreds that stall
 * after their headers. A cut body is bad input in words (it was a 500 with Jetty's "Early EOF"), and stalled bodies
 * hold none of the server's threads (260 of them made every other request wait a minute).
 */
class ApiBodyArrivalTest {
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

    private Socket open() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), h.api.port());
        s.setSoTimeout(20_000);
        return s;
    }

    private String head(int contentLength) {
        return "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n";
    }

    @Test
    void aBodyCutShortIsBadInputInWordsAndStoresNothing() throws Exception {
        String body = "{\"id\": \"cut-1\", \"paymentTimeout\": \"30m\"}";
        try (Socket s = open()) {
            OutputStream out = s.getOutputStream();
            out.write((head(body.length() + 40) + body).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            s.shutdownOutput(); // the client is gone before the 40 bytes more it declared
            String answer = readAll(s.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 400");
            JsonNode doc = ApiHarness.JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertThat(doc.path("error").path("message").asText()).contains("the body ended early").doesNotContain("Exception", "EOF");
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'cut-1'")).isZero();
    }

    @Test
    void stalledBodiesHoldNoThreadAndOthersAreAnsweredMeanwhile() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            // More than the server's 250 threads: before, each held one until the connection's idle timeout (60 s).
            for (int i = 0; i < 300; i++) {
                Socket s = open();
                s.getOutputStream().write((head(100) + "{\"id\": ").getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                stalled.add(s);
            }
            Thread.sleep(500);
            // Answered well before the stalled connections' idle timeout, or not at all: the wait is bounded at 10 s.
            HttpResponse<String> created = h.send(token, java.net.http.HttpRequest.newBuilder(java.net.URI.create(h.base() + "/v1/orders"))
                    .timeout(java.time.Duration.ofSeconds(10)).header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"id\": \"meanwhile-1\", \"paymentTimeout\": \"30m\"}")));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            // A stalled body that then arrives is taken as if it had come at once.
            Socket late = stalled.get(0);
            String rest = "\"late-1\", \"paymentTimeout\": \"30m\"}";
            late.getOutputStream().write((rest + " ".repeat(100 - "{\"id\": ".length() - rest.length())).getBytes(StandardCharsets.US_ASCII));
            late.getOutputStream().flush();
            assertThat(statusLine(late.getInputStream())).startsWith("HTTP/1.1 201");
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    @Test
    void aBodyOverTheLimitStillArrivingIsAnswered413() throws Exception {
        int length = 600 * 1024;
        try (Socket s = open()) {
            OutputStream out = s.getOutputStream();
            out.write(head(length).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // The body comes in pieces after the headers, as an upload over a real network does: the answer is written long
            // before its last byte arrives. Closing then reset the connection, and the client lost the 413 with it.
            byte[] piece = new byte[60 * 1024];
            java.util.Arrays.fill(piece, (byte) 'x');
            for (int sent = 0; sent < length; sent += piece.length) {
                out.write(piece, 0, Math.min(piece.length, length - sent));
                out.flush();
                Thread.sleep(20);
            }
            String answer = statusLine(s.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 413");
        }
    }

    private static String statusLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.write(c);
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
