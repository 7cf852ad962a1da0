package com.orderconsole.app;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigDirTest {
    @Test
    void linuxHonoursXdgConfigHomeAndFallsBackToDotConfig() {
        assertThat(ConfigDir.path("Linux", Map.of("XDG_CONFIG_HOME", "/x/cfg")::get, "/home/ana"))
                .isEqualTo(Path.of("/x/cfg/order-console"));
        assertThat(ConfigDir.path("Linux", Map.<String, String>of()::get, "/home/ana"))
                .isEqualTo(Path.of("/home/ana/.config/order-console"));
        assertThat(ConfigDir.path("Linux", Map.of("XDG_CONFIG_HOME", " ")::get, "/home/ana"))
                .as("a blank XDG_CONFIG_HOME counts as unset").isEqualTo(Path.of("/home/ana/.config/order-console"));
    }

    @Test
    void macAndWindowsUseTheirOwnPlaces() {
        assertThat(ConfigDir.path("Mac OS X", Map.<String, String>of()::get, "/Users/ana"))
                .isEqualTo(Path.of("/Users/ana/Library/Application Support/order-console"));
        assertThat(ConfigDir.path("Windows 11", Map.of("APPDATA", "/c/Users/ana/AppData/Roaming")::get, "/c/Users/ana"))
                .isEqualTo(Path.of("/c/Users/ana/AppData/Roaming/order-console"));
    }
}
