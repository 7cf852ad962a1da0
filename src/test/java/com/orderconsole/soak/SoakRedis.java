package com.orderconsole.soak;

import redis.embedded.core.ExecutableProvider;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The soak's own Redis: the redis-server binary shipped in the embedded-redis jar, run directly so that
 * it can be crashed with SIGKILL and started again on the SAME port and data directory. Always runs with
 * AOF ({@code appendfsync everysec}); "a restart without AOF" is a crash followed by {@link #wipe()}, i.e.
 * what a Redis without persistence comes back with: nothing. As a node of a {@link SoakCluster} it keeps
 * its cluster configuration (node id, slots, peers) outside the data directory, so that a wipe loses the
 * data but not the node's place in the cluster: a master restarted empty, not a new node.
 */
final class SoakRedis implements AutoCloseable {
    private final Path dir;
    private final Path conf;
    private final Path log;
    private final int port;
    private final File binary;
    private Process process;

    /** @param home a directory of its own; data goes to {@code home/data}, the log to {@code home/redis.log} */
    SoakRedis(Path home) {
        this(home, false);
    }

    /**
     * @param home a directory of its own; data goes to {@code home/data}, the log to {@code home/redis.log},
     *     a cluster node's configuration to {@code home/nodes.conf}
     * @param clusterNode whether to run in cluster mode (on a port whose bus port, port + 10000, is free too)
     */
    SoakRedis(Path home, boolean clusterNode) {
        try {
            this.dir = Files.createDirectories(home.resolve("data"));
            this.conf = home.resolve("redis.conf");
            this.log = home.resolve("redis.log");
            this.port = clusterNode ? freeClusterPort() : freePort();
            this.binary = ExecutableProvider.newJarResourceProvider().get();
            binary.setExecutable(true);
            // A config file, not arguments: `save ""` cannot be passed as an argument to redis-server 6.2.
            Files.writeString(conf, String.join("\n",
                    "port " + port,
                    "bind 127.0.0.1",
                    "protected-mode yes",
                    "dir " + dir.toAbsolutePath(),
                    "appendonly yes",
                    "appendfsync everysec",
                    "save \"\"",
                    "maxmemory-policy noeviction",
                    clusterNode ? String.join("\n",
                            "cluster-enabled yes",
                            "cluster-config-file " + home.resolve("nodes.conf").toAbsolutePath(),
                            // Longer than any restart the soak makes: a master down for a few seconds is
                            // refused by the cluster client, not failed by the cluster (no replicas to promote).
                            "cluster-node-timeout 5000",
                            // A restarted master answers CLUSTERDOWN for 2 s (CLUSTER_WRITABLE_DELAY); reads let
                            // the soak see what its AOF kept before any client writes again.
                            "cluster-allow-reads-when-down yes") : "",
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts redis-server and waits (at most 10 s) until it answers PING. */
    synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            process = new ProcessBuilder(binary.getAbsolutePath(), conf.toAbsolutePath().toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server on port " + port, e);
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (ping()) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited with " + process.exitValue() + "; see " + log);
            }
            Soak.sleep(50);
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within 10 s; see " + log);
    }

    /** SIGKILL, waiting (at most 5 s) until the process is gone: a crash, no shutdown work. */
    synchronized void crash() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server did not die within 5 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Deletes every data file (AOF, RDB); only while stopped. */
    synchronized void wipe() {
        if (process != null) {
            throw new IllegalStateException("wipe only a stopped Redis");
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Soak.deleteTree(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return true while the server process lives */
    synchronized boolean running() {
        return process != null && process.isAlive();
    }

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    private boolean ping() {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(500);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64];
            int n = in.read(buf);
            // "-LOADING" while the AOF is being read back: not ready yet.
            return n > 0 && new String(buf, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** @return a free loopback port below 55000 whose cluster bus port (port + 10000) is free as well */
    static int freeClusterPort() {
        java.util.Random r = new java.util.Random();
        for (int i = 0; i < 200; i++) {
            int p = 20_000 + r.nextInt(30_000);
            if (free(p) && free(p + 10_000)) {
                return p;
            }
        }
        throw new IllegalStateException("no free port pair (port, port + 10000) found for a cluster node");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        crash();
    }
}
