package com.orderconsole;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy that can stop forwarding without closing anything, like a network path that
 * silently stalls: bytes wait (in socket buffers) and flow again when resumed, as TCP would deliver them.
 * It can also play the server going down ({@link #down}): every connection closed, new ones refused.
 */
public final class StallingProxy implements AutoCloseable {
    private volatile ServerSocket server;
    private final int port;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean stalled;
    private volatile boolean closed;

    public StallingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = server.getLocalPort();
        listen(server);
    }

    private void listen(ServerSocket on) {
        Thread t = new Thread(() -> accept(on), "stalling-proxy");
        t.setDaemon(true);
        t.start();
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
            for (Socket s : sockets) {
                s.close();
            }
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
            try {
                Socket client = on.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (closed || on.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                while (!closed) {
                    while (stalled && !closed) {
                        Thread.sleep(10);
                    }
                    int n = in.read(buf);
                    if (n < 0) {
                        break;
                    }
                    while (stalled && !closed) {
                        Thread.sleep(10);
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection ended
            }
        }, "stalling-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
