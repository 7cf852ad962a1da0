package com.orderconsole.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine the figures come from, read at run time. */
final class Machine {
    private Machine() {
    }

    /** @return cores, memory, CPU model, OS, Java, Redis and MariaDB versions as a Markdown list */
    static String describe(BenchEnv env) {
        String cpu = "unknown";
        long memKb = 0;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    cpu = l.substring(l.indexOf(':') + 1).trim();
                    break;
                }
            }
            List<String> mem = Files.readAllLines(Path.of("/proc/meminfo"));
            for (String l : mem) {
                if (l.startsWith("MemTotal:")) {
                    memKb = Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: the figures stay valid, only the description is thinner.
        }
        String redis = env.info("server").get("redis_version");
        String maria = String.valueOf(env.sqlValue("SELECT VERSION()"));
        String pool = String.valueOf(env.sqlValue("SELECT @@innodb_buffer_pool_size"));
        return "- cores: " + Runtime.getRuntime().availableProcessors() + " (" + cpu + ")\n"
                + "- memory: " + (memKb >> 20) + " GiB\n"
                + "- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n"
                + "- Java: " + BenchMain.jvm() + "\n"
                + "- Redis: " + redis + " (embedded, loopback, appendonly everysec)\n"
                + "- MariaDB: " + maria + " (embedded, loopback, innodb_buffer_pool_size " + (Long.parseLong(pool) >> 20)
                + " MiB, innodb_flush_log_at_trx_commit=2)\n"
                + "- all servers, the benchmark client and the JMH forks share these cores";
    }
}
