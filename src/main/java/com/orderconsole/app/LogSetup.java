package com.orderconsole.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The product's logging, set up in code: one appender on stderr (stdout carries only results, so the CLI's JSON
 * documents stay parseable), {@code com.orderconsole} at the level of the system property {@value #LEVEL_PROPERTY}
 * (the CLI sets WARN before logging starts; default INFO), everything else at WARN. Logback finds it through
 * {@code META-INF/services} before it looks for an XML file; set up in code, a one-shot command does not load and run
 * the XML configurator (about a tenth of a second). A {@code logback-test.xml} on the class path, or a file named by
 * {@code -Dlogback.configurationFile}, still wins: this then steps aside.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
    /** The system property with the level of the product's own loggers. */
    public static final String LEVEL_PROPERTY = "oc.log.level";

    /** Called by logback through the service loader. */
    public LogSetup() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        if (System.getProperty("logback.configurationFile") != null
                || LogSetup.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> err = new ConsoleAppender<>();
        err.setContext(ctx);
        err.setName("ERR");
        err.setTarget("System.err");
        err.setEncoder(encoder);
        err.start();
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(err);
        ctx.getLogger("com.orderconsole").setLevel(Level.toLevel(System.getProperty(LEVEL_PROPERTY), Level.INFO));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
