package com.orderconsole.app;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's and serve's log lines land in a rolling file in the data directory. */
class LogFilesTest {
    @Test
    void infoLinesAreWrittenToTheDataDirectorysLogFile() throws Exception {
        Path dataDir = Path.of("target", "log-files-test").toAbsolutePath();
        com.orderconsole.TestServers.deleteTree(dataDir);
        // A serve run earlier in this test JVM (CliSignInTest's refused one) installed its own file: one per process.
        ch.qos.logback.classic.Logger rootLogger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        var earlier = rootLogger.getAppender("FILE");
        if (earlier != null) {
            rootLogger.detachAppender(earlier);
            earlier.stop();
        }
        Path folder = LogFiles.install(dataDir);
        assertThat(folder).isEqualTo(dataDir.resolve("logs"));
        assertThat(LogFiles.install(dataDir)).as("a second call changes nothing").isEqualTo(folder);
        LoggerFactory.getLogger("com.orderconsole.app.Engine").info("engine stopped (log file test {})", 42);
        Path file = folder.resolve(LogFiles.FILE);
        assertThat(file).exists();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).contains("INFO").contains("engine stopped (log file test 42)");
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        @SuppressWarnings("unchecked")
        var appender = (ch.qos.logback.core.rolling.RollingFileAppender<ch.qos.logback.classic.spi.ILoggingEvent>) root.getAppender("FILE");
        var policy = (ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy<?>) appender.getRollingPolicy();
        assertThat(policy.getMaxHistory()).as("days kept").isEqualTo(LogFiles.MAX_DAYS);
        assertThat(policy.getFileNamePattern()).endsWith("order-console.%d{yyyy-MM-dd}.%i.log.gz");
        // The file appender is for this test JVM only as long as the test: later tests log to the console only.
        root.detachAppender(appender);
        appender.stop();
    }
}
