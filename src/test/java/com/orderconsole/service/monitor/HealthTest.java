package com.orderconsole.service.monitor;

import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HealthTest {
    @Test
    void warnsAboutEvictionSilentSweeperAndPause() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            assertThat(s.health().check().warnings()).anyMatch(w -> w.contains("no cancel sweeper has ever run"));
            s.sweeper().tick();
            Health ok = s.health().check();
            assertThat(ok.redisUp()).isTrue();
            assertThat(ok.mysqlUp()).isTrue();
            assertThat(ok.rulesVersion()).isEqualTo(1);
            assertThat(ok.warnings()).isEmpty();

            raw.cmd().configSet("maxmemory-policy", "allkeys-lru");
            try {
                assertThat(s.health().check().warnings()).anyMatch(w -> w.contains("maxmemory-policy is allkeys-lru"));
            } finally {
                raw.cmd().configSet("maxmemory-policy", "noeviction");
            }

            raw.cmd().hset(RedisKeys.SWEEPER, Map.of("lastTick", Long.toString(System.currentTimeMillis() - 30_000)));
            assertThat(s.health().check().warnings()).anyMatch(w -> w.matches("cancel sweeper has not ticked for 3\\d s"));

            s.sweeper().setPaused(new Operator("olga", Role.OPS), true, "console", "");
            assertThat(s.health().check().warnings()).contains("cancel sweeper is paused");
        }
    }

    @Test
    void scriptsMissingFromTheCacheAreReloadedByMaintenance() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            raw.cmd().scriptFlush();
            e.services().maintenance().runOnce();
            assertThat(raw.cmd().scriptExists(sha1(com.orderconsole.redis.LuaScript.TRANSITION.source()))).containsExactly(true);
        }
    }

    private static String sha1(String s) throws RuntimeException {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
