package com.orderconsole.identity;

import com.orderconsole.TestServers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating system's own MariaDB server (Debian's {@code mariadbd}), started by the tests from a fresh data
 * directory on a loopback port, with grant tables: a server the product did not start and whose binary it did not
 * bring, for the tests of an account's privileges on a real installation (issue 25). Absent binaries: not available,
 * and the tests using it say so and are skipped.
 */
final class DistroMariaDb implements AutoCloseable {
    static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    static final Path INSTALL = Path.of("/usr/bin/mariadb-install-db");
    static final Path CLIENT = Path.of("/usr/bin/mariadb");
    /** The administrator the fixture creates (the distribution's root signs in only through the socket). */
    static final String ADMIN = "it_admin";
    static final String ADMIN_PASSWORD = "pw-It-admin-1";

    private final Process process;
    private final int port;

    private DistroMariaDb(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** @return true when this machine has the distribution's server, installer and client */
    static boolean available() {
        return Files.isExecutable(SERVER) && Files.isExecutable(INSTALL) && Files.isExecutable(CLIENT);
    }

    /** Initialises a data directory under target/, starts the server and creates {@link #ADMIN}. */
    static DistroMariaDb start() throws IOException, InterruptedException {
        Path dir = Path.of("target", "test-servers", "distro-mariadb").toAbsolutePath();
        TestServers.deleteTree(dir);
        Files.createDirectories(dir);
        String user = System.getProperty("user.name");
        run(List.of(INSTALL.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--user=" + user,
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path socket = dir.resolve("mariadb.sock");
        Process p = new ProcessBuilder(SERVER.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--port=" + port,
                "--bind-address=127.0.0.1", "--socket=" + socket, "--user=" + user, "--skip-log-bin",
                "--innodb-buffer-pool-size=64M", "--pid-file=" + dir.resolve("mariadbd.pid"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("mariadbd.log").toFile()).start();
        DistroMariaDb db = new DistroMariaDb(p, port);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!db.accepts()) {
            if (!p.isAlive() || System.nanoTime() > end) {
                db.close();
                throw new IOException("the distribution's mariadbd did not start; see " + dir.resolve("mariadbd.log"));
            }
            Thread.sleep(100);
        }
        // Through the socket, as the distribution's root: anonymous accounts go (DBA guide), an administrator comes.
        run(List.of(CLIENT.toString(), "--no-defaults", "-S", socket.toString(), "-uroot", "-e",
                "DROP USER IF EXISTS ''@'localhost'; CREATE USER '" + ADMIN + "'@'127.0.0.1' IDENTIFIED BY '" + ADMIN_PASSWORD + "';"
                        + " GRANT ALL PRIVILEGES ON *.* TO '" + ADMIN + "'@'127.0.0.1' WITH GRANT OPTION;"), dir.resolve("setup.log"));
        return db;
    }

    /** @return the server's URL without a schema */
    String url() {
        return "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED";
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(command.get(0) + " failed: " + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
