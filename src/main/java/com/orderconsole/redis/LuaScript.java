package com.orderconsole.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Lua scripts, one file each under {@code /lua/} on the classpath. */
public enum LuaScript {
    TRANSITION("transition.lua"),
    INIT_ORDER("init_order.lua"),
    REQUEUE("requeue.lua"),
    PUBLISH_RULES("publish_rules.lua"),
    SET_STATUS_COUNTS("set_status_counts.lua"),
    COUNT_OUTBOX("count_outbox.lua"),
    RETIRE("retire.lua");

    private final String file;
    private volatile String source;

    LuaScript(String file) {
        this.file = file;
    }

    /** @return the script text, read once from the classpath */
    public String source() {
        String s = source;
        if (s == null) {
            try (InputStream in = LuaScript.class.getResourceAsStream("/lua/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("Lua script /lua/" + file + " is missing from the classpath");
                }
                s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
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
