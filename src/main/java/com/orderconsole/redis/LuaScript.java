package com.orderconsole.redis;

import com.orderconsole.domain.OrderStatus;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts, one file each under {@code /lua/} on the classpath. The one place a script's text is read, so the
 * one place a constant is written into it: {@value #STATUS_COUNT} becomes {@link OrderStatus#count()} (a script that
 * gets no argument per status, such as transition.lua on its hot path, still knows the status set without a literal).
 */
public enum LuaScript {
    TRANSITION("transition.lua"),
    INIT_ORDER("init_order.lua"),
    REQUEUE("requeue.lua"),
    PUBLISH_RULES("publish_rules.lua"),
    SET_STATUS_COUNTS("set_status_counts.lua"),
    COUNT_OUTBOX("count_outbox.lua"),
    RETIRE("retire.lua");

    /** Written in a script where it needs the number of statuses; not valid Lua, so a script never runs with it. */
    static final String STATUS_COUNT = "${STATUS_COUNT}";

    private final String file;
    private volatile String source;

    LuaScript(String file) {
        this.file = file;
    }

    /** @return the script text, read once from the classpath, with {@value #STATUS_COUNT} written in */
    public String source() {
        String s = source;
        if (s == null) {
            try (InputStream in = LuaScript.class.getResourceAsStream("/lua/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("Lua script /lua/" + file + " is missing from the classpath");
                }
                s = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .replace(STATUS_COUNT, Integer.toString(OrderStatus.count()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            source = s;
        }
        return s;
    }

    /** @return the file name */
    public String file() {
        return file;
    }
}
