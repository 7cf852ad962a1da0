package com.orderconsole.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The benchmark's HTTP load client: one keep-alive HTTP/1.1 connection on loopback, a request written and its response
 * read in the calling thread. Bare, like {@link RespPipeline} for Redis, so that the figures are the server's and not a
 * client library's (the JDK's HttpClient, tried first, runs every connection through one selector thread and used most
 * of a core of its own at 2,000 requests/s). Only the status line and the body's length (Content-Length or chunks) are
 * read.
 */
final class HttpLoad implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String host;

    HttpLoad(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        host = "127.0.0.1:" + port;
    }

    /** @return the response status of a JSON POST; the body is read and dropped */
    int post(String path, String token, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        // One write, one TCP segment: written apart (TCP_NODELAY) the body often came after Jetty had run the handler, and
        // a handler that does not read its body then has its connection closed.
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = java.util.Arrays.copyOf(h, h.length + body.length);
        System.arraycopy(body, 0, request, h.length, body.length);
        out.write(request);
        out.flush();
        return readResponse();
    }

    private int readResponse() throws IOException {
        String status = line();
        int code = Integer.parseInt(status.substring(9, 12));
        int length = -1;
        boolean chunked = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            String name = colon > 0 ? h.substring(0, colon) : "";
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(h.substring(colon + 1).trim());
            } else if (name.equalsIgnoreCase("Transfer-Encoding") && h.toLowerCase(java.util.Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            for (int size = Integer.parseInt(line().trim(), 16); size > 0; size = Integer.parseInt(line().trim(), 16)) {
                in.readNBytes(size);
                line();
            }
            line();
        } else if (length >= 0) {
            in.readNBytes(length);
        } else {
            throw new IOException("response without Content-Length or chunks");
        }
        return code;
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
