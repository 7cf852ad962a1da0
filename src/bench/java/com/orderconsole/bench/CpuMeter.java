package com.orderconsole.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time spent by the three processes of a scenario (this JVM, the embedded MariaDB, the embedded Redis)
 * between two snapshots: on two shared cores, wall-clock rates move with whatever else runs, CPU per
 * change says where a change's cost lies. MariaDB's comes from {@code /proc/<pid>/stat} (Linux only; -1
 * elsewhere), Redis' from {@code INFO cpu}, the JVM's from its OperatingSystemMXBean.
 */
final class CpuMeter {
    private final BenchEnv env;
    private final long mariaPid;

    CpuMeter(BenchEnv env) {
        this.env = env;
        this.mariaPid = findMariaDb(env.mariaDb.port());
    }

    /** CPU seconds used so far by each process; -1 when unknown. */
    record Snapshot(double jvm, double mariaDb, double redis) {
        /** @return per-unit microseconds of CPU from {@code this} to {@code later}, formatted "JVM a, MariaDB b, Redis c µs" */
        String perUnit(Snapshot later, long units) {
            return "JVM " + us(later.jvm - jvm, units) + ", MariaDB " + (mariaDb < 0 ? "?" : us(later.mariaDb - mariaDb, units))
                    + ", Redis " + us(later.redis - redis, units) + " µs";
        }

        double mariaDbUs(Snapshot later, long units) {
            return mariaDb < 0 ? -1 : (later.mariaDb - mariaDb) * 1e6 / units;
        }

        private static String us(double seconds, long units) {
            return Table.num(seconds * 1e6 / units, 1);
        }
    }

    Snapshot now() {
        double jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
        Map<String, String> cpu = env.info("cpu");
        double redis = Double.parseDouble(cpu.getOrDefault("used_cpu_user", "0")) + Double.parseDouble(cpu.getOrDefault("used_cpu_sys", "0"));
        return new Snapshot(jvm, mariaDbSeconds(), redis);
    }

    private double mariaDbSeconds() {
        if (mariaPid < 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + mariaPid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields 14 and 15 of stat (utime, stime) are 11 and 12 after the command name; clock ticks of 1/100 s
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long findMariaDb(int port) {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().matches("\\d+")).filter(p -> {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    return cmd.contains("mariadbd") && cmd.contains("--port=" + port + " ");
                } catch (IOException e) {
                    return false;
                }
            }).mapToLong(p -> Long.parseLong(p.getFileName().toString())).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }
}
