package com.orderconsole.embedded;

import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Redis server (6.2, shipped inside the embedded-redis jar) on a loopback port, keeping its data
 * in a directory with an append-only file fsynced every second, so state survives a restart.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private final Path dir;
    private final int port;
    private RedisServer server;

    /**
     * @param dir data directory (created if absent)
     * @param port loopback port; 0 picks a free one
     */
    public EmbeddedRedis(Path dir, int port) {
        this.dir = dir;
        this.port = port == 0 ? Ports.free() : port;
    }

    /** Starts the server (about 0.1 s). */
    public synchronized EmbeddedRedis start() {
        try {
            Files.createDirectories(dir);
            server = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("protected-mode yes")
                    .setting("dir " + dir.toAbsolutePath())
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("save \"\"")
                    // The AOF rewrite's RDB part uncompressed: LZF saved 2.5 % of the file on a million order hashes
                    // and cost 40 % of the rewrite's CPU (4.2 s against 2.6 s), a core taken from the follower and
                    // MariaDB for that long (docs/benchmarks-history.md, seventh pass).
                    .setting("rdbcompression no")
                    // The state machine relies on keys never being evicted.
                    .setting("maxmemory-policy noeviction")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded Redis on port " + port + " in " + dir, e);
        }
    }

    /** Stops the server; its data stays in the directory. */
    public synchronized void stop() {
        if (server != null) {
            try {
                server.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = null;
        }
    }

    /** Stops the server and deletes its data files, as a Redis that lost everything (for fault drills). */
    public synchronized void stopAndWipe() {
        stop();
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (Files.isDirectory(p)) {
                    try (var inner = Files.list(p)) {
                        for (Path q : (Iterable<Path>) inner::iterator) {
                            Files.deleteIfExists(q);
                        }
                    }
                }
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the loopback port */
    public int port() {
        return port;
    }

    /** @return a URI for clients */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** @return true while started */
    public synchronized boolean running() {
        return server != null;
    }

    @Override
    public void close() {
        stop();
    }
}
