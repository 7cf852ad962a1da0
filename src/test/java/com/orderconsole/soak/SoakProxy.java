package com.orderconsole.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of one server for one engine, that can stall: stop forwarding in both
 * directions without closing anything (bytes wait in socket buffers and flow again on resume), like a
 * network path that silently hangs. Unlike {@code StallingProxy} it closes the client's socket when the
 * server cannot be reached (the server is down), as a real proxy would, instead of leaving it open.
 */
final class SoakProxy implements AutoCloseable {
    private final String name;
    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean stalled;
    private volatile boolean closed;

    /**
     * @param name for the report, e.g. "engine-1/redis"
     * @param targetPort the server's loopback port
     */
    SoakProxy(String name, int targetPort) throws IOException {
        this.name = name;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "soak-proxy-" + name);
        t.setDaemon(true);
        t.start();
    }

    String name() {
        return name;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Stops (true) or resumes (false) forwarding in both directions. */
    void stall(boolean on) {
        stalled = on;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                continue; // closed, or a failed accept: the loop condition decides
            }
            try {
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                closeQuietly(client); // server down: refuse, as the server itself would
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                while (!closed) {
                    awaitResume();
                    int n = in.read(buf);
                    if (n < 0) {
                        break;
                    }
                    awaitResume();
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection ended
            } finally {
                // One side ended: end the other too, so that neither end waits for ever.
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "soak-proxy-pump-" + name);
        t.setDaemon(true);
        t.start();
    }

    private void awaitResume() throws InterruptedException {
        while (stalled && !closed) {
            Thread.sleep(10);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        sockets.forEach(SoakProxy::closeQuietly);
    }
}
