package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Requests written byte by byte on a socket, for what an HTTP client library would refuse to send or would normalise
 * (a bad request line, an encoded '..', a control character in a header, HTTP/0.9, a header given twice).
 */
final class RawHttp {
    private RawHttp() {
    }

    /**
     * One answer as it came: status, headers (names lower-cased; a header given twice keeps its values joined by ", "),
     * and body.
     */
    record Answer(String statusLine, int status, Map<String, String> headers, String body) {
        JsonNode json() throws IOException {
            return ApiHarness.JSON.readTree(body);
        }

        String message() throws IOException {
            return json().path("error").path("message").asText();
        }

        String kind() throws IOException {
            return json().path("error").path("kind").asText();
        }
    }

    /** Sends the bytes as they are, closes the sending side, and reads the answer until the server closes. */
    static Answer send(int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput();
            return parse(s.getInputStream().readAllBytes());
        }
    }

    /**
     * Reads one answer from a connection kept open (it has a Content-Length): status line, headers and body as text, or
     * "none" when the connection closed before any of it.
     */
    static String readOne(java.io.InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return head.length() == 0 ? "none" : head.toString();
            }
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    static Answer parse(byte[] bytes) {
        String all = new String(bytes, StandardCharsets.UTF_8);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            return new Answer(all, -1, Map.of(), "");
        }
        String[] lines = all.substring(0, end).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim(),
                    (a, b) -> a + ", " + b);
        }
        String[] status = lines[0].split(" ", 3);
        return new Answer(lines[0], Integer.parseInt(status[1]), headers, all.substring(end + 4));
    }
}
