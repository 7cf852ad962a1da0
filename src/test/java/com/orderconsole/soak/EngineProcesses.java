package com.orderconsole.soak;

import com.orderconsole.StallingProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The soak's engine processes ({@link SoakWorker}), each a separate JVM reaching MySQL through its own
 * {@link StallingProxy} and Redis through its own proxy too on one server (so a stall hits one process's
 * connection, as a partial network fault would); on a cluster, each is given one node's address and the
 * cluster client then talks to the masters directly, at the addresses they announce. Each start writes its own log file {@code <dir>/engine-<n>-<start>.log}.
 */
final class EngineProcesses implements AutoCloseable {
    private final Path dir;
    private final List<String> redisUris;
    private final List<StallingProxy> mysqlProxies;
    private final long lifetimeSeconds;
    private final Process[] processes;
    private final int[] starts;
    private boolean closed;

    /**
     * @param dir logs and data directories
     * @param redisUris one per process: its proxy in front of Redis, or a cluster node
     * @param mysqlProxies one per process, in front of MySQL
     * @param lifetimeSeconds a process ends by itself after this long (a bound, should the soak JVM hang)
     */
    EngineProcesses(Path dir, List<String> redisUris, List<StallingProxy> mysqlProxies, long lifetimeSeconds) {
        this.dir = dir;
        this.redisUris = redisUris;
        this.mysqlProxies = mysqlProxies;
        this.lifetimeSeconds = lifetimeSeconds;
        this.processes = new Process[redisUris.size()];
        this.starts = new int[processes.length];
    }

    int size() {
        return processes.length;
    }

    /** Starts process {@code i} (no-op when it runs, or after {@link #close()}). */
    synchronized void start(int i) {
        if (closed || processes[i] != null && processes[i].isAlive()) {
            return;
        }
        starts[i]++;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String name = "engine-" + i;
        List<String> cmd = new ArrayList<>(List.of(java,
                // Small and quick to start: 2 cores are shared by everything in the soak.
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp", System.getProperty("java.class.path"),
                SoakWorker.class.getName(), name,
                redisUris.get(i),
                SoakMariaDb.jdbcUrl(mysqlProxies.get(i).port()),
                dir.resolve(name + "-data").toString(),
                Long.toString(lifetimeSeconds)));
        try {
            Files.createDirectories(dir);
            // stdin stays a pipe from this JVM: when the soak JVM dies, the worker reads EOF and exits.
            processes[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(logOf(i, starts[i]).toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** SIGKILL process {@code i} and wait (at most 5 s) until it is gone. */
    synchronized void kill(int i) {
        Process p = processes[i];
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        processes[i] = null;
    }

    /** @return true when process {@code i} runs */
    synchronized boolean alive(int i) {
        return processes[i] != null && processes[i].isAlive();
    }

    /**
     * Waits until every process printed {@link SoakWorker#READY} in its current log.
     *
     * @return true when all did within the timeout
     */
    boolean awaitReady(long timeoutMs) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            boolean all = true;
            for (int i = 0; i < processes.length; i++) {
                all &= ready(i);
            }
            if (all) {
                return true;
            }
            Soak.sleep(200);
        }
        return false;
    }

    private synchronized boolean ready(int i) {
        try {
            Path log = logOf(i, starts[i]);
            return Files.exists(log) && Files.readString(log).contains(SoakWorker.READY);
        } catch (IOException e) {
            return false;
        }
    }

    private Path logOf(int i, int start) {
        return dir.resolve("engine-" + i + "-" + start + ".log");
    }

    /** @return how many times each process was started */
    synchronized int[] starts() {
        return starts.clone();
    }

    /** Kills every process; none starts again (a restart racing the end of the soak is refused). */
    @Override
    public synchronized void close() {
        closed = true;
        for (int i = 0; i < processes.length; i++) {
            kill(i);
        }
    }
}
