package com.orderconsole.cli;

import com.orderconsole.app.Profile;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * serve's OIDC settings, as flags or as a profile's keys: all four or none, each checked in words before anything starts.
 */
class ServeOidcOptionsTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void profilesHere() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        System.setProperty(Profiles.DIR_PROPERTY, dir.toString());
    }

    @AfterEach
    void profilesBack() {
        System.clearProperty(Profiles.DIR_PROPERTY);
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void someSettingsWithoutTheOthersAreAUsageErrorNamingWhatIsMissing() {
        Run r = cli("serve", "--api-port", "0", "--oidc-issuer", "https://login.example.com/realms/shop");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("missing: --oidc-audience, --oidc-role-claim, --oidc-role-map");

        r = cli("serve", "--oidc-issuer", "https://login.example.com/realms/shop", "--oidc-audience", "api", "--oidc-role-claim",
                "groups", "--oidc-role-map", "g=support");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("need --api-port");

        r = cli("serve", "--api-port", "0", "--oidc-issuer", "http://login.example.com/realms/shop", "--oidc-audience", "api",
                "--oidc-role-claim", "groups", "--oidc-role-map", "g=support");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("must be an https URL");

        r = cli("serve", "--api-port", "0", "--oidc-issuer", "https://login.example.com/realms/shop", "--oidc-audience", "api",
                "--oidc-role-claim", "groups", "--oidc-role-map", "console-ops=ops,console-boss=boss");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("--oidc-role-map entry 'console-boss=boss': unknown role 'boss'");
    }

    @Test
    void aProfileHoldsTheSameKeysAndAFlagCompletesThem() throws IOException {
        Files.writeString(dir.resolve("idp.properties"), "kind = local\n"
                + "oidc-issuer = https://login.example.com/realms/shop\n"
                + "oidc-audience = order-console-api\n"
                + "oidc-role-claim = realm_access.roles\n"
                + "oidc-role-map = console-support=support,console-ops=ops,console-admin=admin   # the three teams\n");
        Profile p = Profiles.load(dir, "idp");
        assertThat(p.oidc()).containsEntry("oidc-issuer", "https://login.example.com/realms/shop")
                .containsEntry("oidc-role-map", "console-support=support,console-ops=ops,console-admin=admin");
        assertThat(com.orderconsole.service.identity.OidcSettings.parseRoleMap(p.oidc().get("oidc-role-map")))
                .isEqualTo(Map.of("console-support", Role.SUPPORT, "console-ops", Role.OPS, "console-admin", Role.ADMIN));

        Files.writeString(dir.resolve("half.properties"), "kind = local\noidc-issuer = https://login.example.com/realms/shop\n");
        Run r = cli("serve", "--profile", "half", "--api-port", "0", "--oidc-audience", "api");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("missing: --oidc-role-claim, --oidc-role-map");
    }
}
