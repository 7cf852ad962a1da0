package com.orderconsole.app;

import com.orderconsole.app.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Properties;

/**
 * Who runs the embedded servers of a data directory. Two processes must never start servers on the same
 * files, so the one that starts them holds an exclusive file lock on {@code servers.lock} for its
 * lifetime and writes their ports to {@code servers.properties}. Another process finding the lock taken:
 * attaches to those servers when the owner is a console or {@code serve} (long-lived) and it is a one-shot command
 * itself, or waits for a one-shot command to finish and then starts them itself. A second long-lived process is refused:
 * the servers stop with their owner, and it would be left running without them.
 */
final class DataDirLease implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DataDirLease.class);
    /** How long a command waits for another command that holds the data directory. */
    static final Duration WAIT_FOR_COMMAND = Duration.ofSeconds(120);

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLease(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * The servers another process runs for a data directory.
     *
     * @param redisPort loopback port of its Redis
     * @param mariaDbPort loopback port of its MariaDB
     * @param pid the owning process
     */
    record Running(int redisPort, int mariaDbPort, long pid) {
    }

    /** Either a lease (this process starts the servers) or the servers another process runs. */
    record Outcome(DataDirLease lease, Running running) {
    }

    /**
     * @param dataDir the embedded servers' data directory (created if absent)
     * @param longLived true for the console: others may attach to its servers
     * @return a lease to start the servers, or the running servers of a console to attach to
     * @throws IllegalStateException when a command holds the directory for longer than {@link #WAIT_FOR_COMMAND}, or when
     *     this process is long-lived and another long-lived one runs the servers
     */
    static Outcome acquire(Path dataDir, boolean longLived) {
        try {
            Files.createDirectories(dataDir);
            FileChannel ch = FileChannel.open(dataDir.resolve("servers.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long deadline = System.nanoTime() + WAIT_FOR_COMMAND.toNanos();
            boolean said = false;
            while (true) {
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (java.nio.channels.OverlappingFileLockException e) {
                    lock = null; // held by this same JVM (another engine in it)
                }
                if (lock != null) {
                    Files.deleteIfExists(dataDir.resolve("servers.properties"));
                    return new Outcome(new DataDirLease(dataDir, ch, lock), null);
                }
                Properties p = readInfo(dataDir);
                if (p != null && "console".equals(p.getProperty("owner"))) {
                    ch.close();
                    if (longLived) {
                        throw new IllegalStateException(Messages.format("common.dataDir.ownedByLongLived", dataDir, p.getProperty("pid")));
                    }
                    Running r = new Running(Integer.parseInt(p.getProperty("redisPort")),
                            Integer.parseInt(p.getProperty("mariaDbPort")), Long.parseLong(p.getProperty("pid")));
                    log.info("using the embedded servers of process {} (a console or serve) in {}", r.pid(), dataDir);
                    return new Outcome(null, r);
                }
                if (System.nanoTime() > deadline) {
                    ch.close();
                    throw new IllegalStateException(Messages.format("common.dataDir.busy", dataDir,
                            p == null ? "?" : p.getProperty("pid"), WAIT_FOR_COMMAND.toSeconds()));
                }
                if (!said) {
                    log.warn("the data directory {} is in use by another command; waiting for it to finish", dataDir);
                    said = true;
                }
                Thread.sleep(200);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("common.dataDir.noLock", dataDir, e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(Messages.format("common.dataDir.interrupted", dataDir), e);
        }
    }

    private static Properties readInfo(Path dataDir) throws IOException {
        Path f = dataDir.resolve("servers.properties");
        if (!Files.exists(f)) {
            return null;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        }
        return p.getProperty("redisPort") == null ? null : p;
    }

    /** Records the ports of the servers this process started, for others to find. */
    void publish(int redisPort, int mariaDbPort, boolean longLived) {
        Properties p = new Properties();
        p.setProperty("redisPort", Integer.toString(redisPort));
        p.setProperty("mariaDbPort", Integer.toString(mariaDbPort));
        p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        p.setProperty("owner", longLived ? "console" : "command");
        Path tmp = dir.resolve("servers.properties.tmp");
        try (Writer w = Files.newBufferedWriter(tmp)) {
            p.store(w, "embedded servers of this data directory; valid while servers.lock is held");
            Files.move(tmp, dir.resolve("servers.properties"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(dir.resolve("servers.properties"));
            lock.release();
            channel.close();
        } catch (IOException e) {
            log.warn("cannot release the data directory lock: {}", e.getMessage());
        }
    }
}
