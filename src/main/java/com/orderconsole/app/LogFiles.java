package com.orderconsole.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * The log file of the long-running processes (the console, {@code serve}): {@code logs/order-console.log}
 * in the data directory, rolled daily and at {@value #MAX_FILE_MB} MB, old files gzipped and kept
 * {@value #MAX_DAYS} days and {@value #TOTAL_CAP_MB} MB at most, whichever comes first. One-shot commands
 * keep to stderr ({@link LogSetup}).
 */
public final class LogFiles {
    /** Name of the file being written. */
    public static final String FILE = "order-console.log";
    static final int MAX_FILE_MB = 10;
    static final int MAX_DAYS = 14;
    static final int TOTAL_CAP_MB = 200;
    private static final String APPENDER = "FILE";

    private LogFiles() {
    }

    /** @param dataDir a data directory @return where its log files are: {@code logs/} in it */
    public static Path dir(Path dataDir) {
        return dataDir.resolve("logs");
    }

    /**
     * Starts writing this process's log to the data directory's log file, at INFO for the console's own
     * lines (start, stop, import, repair, alerts) and WARN for libraries. A second call does nothing.
     *
     * @param dataDir the data directory
     * @return the log folder
     */
    public static synchronized Path install(Path dataDir) {
        Path folder = dir(dataDir).toAbsolutePath();
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return folder; // another SLF4J binding: it has its own configuration
        }
        ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender(APPENDER) != null) {
            return folder;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS XXX} %-5level [%thread] %logger{30} - %msg%n");
        encoder.setCharset(java.nio.charset.StandardCharsets.UTF_8);
        encoder.start();
        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(ctx);
        file.setName(APPENDER);
        file.setFile(folder.resolve(FILE).toString());
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(file);
        policy.setFileNamePattern(folder.resolve("order-console.%d{yyyy-MM-dd}.%i.log.gz").toString());
        policy.setMaxFileSize(FileSize.valueOf(MAX_FILE_MB + "MB"));
        policy.setMaxHistory(MAX_DAYS);
        policy.setTotalSizeCap(FileSize.valueOf(TOTAL_CAP_MB + "MB"));
        policy.start();
        file.setRollingPolicy(policy);
        file.setEncoder(encoder);
        file.start();
        root.addAppender(file);
        ctx.getLogger("com.orderconsole").setLevel(Level.INFO);
        return folder;
    }
}
