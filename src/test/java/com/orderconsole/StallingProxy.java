package com.orderconsole;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of one server, that plays what networks and servers do to a client: it can stall
 * ({@link #stall}: stop forwarding in both directions without closing anything; bytes wait in socket buffers and
 * flow again on resume, as TCP would deliver them), and the server can go down ({@link #down}: every connection
 * closed, new ones refused) and come back on the same port. When the server cannot be reached the client's socket
 * is closed, and when one side of a connection ends the other is ended too, as a real proxy would.
 * Used by the tests of hangs and outages and by the fault soak.
 */
public final class StallingProxy implements AutoCloseable {
    private final String name;
    private volatile ServerSocket server;
    private final int port;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean stalled;
    private volatile boolean closed;

    /** @param targetPort the server's loopback port */
    public StallingProxy(int targetPort) throws IOException {
        this("proxy", targetPort);
    }

    /**
     * @param name for thread names and reports, e.g. "engine-1/redis"
     * @param targetPort the server's loopback port
     */
    public StallingProxy(String name, int targetPort) throws IOException {
        this.name = name;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = server.getLocalPort();
        listen(server);
    }

    private void listen(ServerSocket on) {
        Thread t = new Thread(() -> accept(on), "stalling-proxy-" + name);
        t.setDaemon(true);
        t.start();
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /**
     * Plays the server going down (true: every open connection closed, new ones refused, as by a stopped
     * server) or coming back (false: the same port accepts again).
     */
    public synchronized void down(boolean on) throws IOException {
        if (on) {
            server.close();
            sockets.forEach(StallingProxy::closeQuietly);
            sockets.clear();
        } else if (server.isClosed()) {
            ServerSocket again = new ServerSocket();
            again.setReuseAddress(true);
            again.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            server = again;
            listen(again);
        }
    }

    /** Stops (true) or resumes (false) forwarding in both directions. */
    public void stall(boolean on) {
        stalled = on;
    }

    private void accept(ServerSocket on) {
        while (!closed && !on.isClosed()) {
            Socket client;
            try {
                client = on.accept();
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
        }, "stalling-proxy-pump-" + name);
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
        sockets.forEach(StallingProxy::closeQuietly);
    }
}
