package com.orderconsole.app;

import com.orderconsole.domain.Environment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Profile files: a good one is read whole; a bad one is refused naming file, line and field, in words. */
class ProfilesTest {
    @org.junit.jupiter.api.BeforeEach
    void inEnglish() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
    }

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name + ".properties");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void aGoodProfileGivesServersAccountAndEnvironment() throws IOException {
        write("prod-eu", """
                # the real one
                kind = production
                colour = #B71C1C
                redis = rediss://redis.internal:6380/0
                jdbc: jdbc:mysql://mysql.internal:3306/orders?sslMode=REQUIRED
                db-user = alice   # her own account
                password-env = ORDERS_DB_PASSWORD
                """);
        Profile p = Profiles.load(dir, "prod-eu");
        assertThat(p.environment()).isEqualTo(new Environment("prod-eu", Environment.Kind.PRODUCTION, "#b71c1c"));
        assertThat(p.environment().production()).isTrue();
        assertThat(p.redisUri()).isEqualTo("rediss://redis.internal:6380/0");
        assertThat(p.jdbcUrl()).isEqualTo("jdbc:mysql://mysql.internal:3306/orders?sslMode=REQUIRED");
        assertThat(p.dbUser()).isEqualTo("alice");
        assertThat(p.passwordEnv()).isEqualTo("ORDERS_DB_PASSWORD");
        EngineConfig c = p.apply(EngineConfig.embeddedDefault().withCommandTimeout(Duration.ofSeconds(3)), "secret");
        assertThat(c.redisUri()).isEqualTo(p.redisUri());
        assertThat(c.jdbcUrl()).isEqualTo(p.jdbcUrl());
        assertThat(c.dbUser()).isEqualTo("alice");
        assertThat(c.signInRequired()).isTrue();
        assertThat(c.commandTimeout()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aColourDefaultsToTheKindsAndALocalProfileKeepsTheEmbeddedServers() throws IOException {
        write("mine", "kind=dev\ndata-dir=/srv/oc\n");
        Profile p = Profiles.load(dir, "mine");
        assertThat(p.environment().colour()).isEqualTo(Environment.Kind.DEV.defaultColour());
        assertThat(p.external()).isFalse();
        EngineConfig c = p.apply(EngineConfig.embeddedDefault(), "");
        assertThat(c.redisUri()).isNull();
        assertThat(c.dataDir()).isEqualTo(Path.of("/srv/oc"));
    }

    @Test
    void aLineThatIsNoFieldIsRefusedWithItsLine() throws IOException {
        write("bad", "kind = dev\n\nthis is not a field\n");
        assertThatThrownBy(() -> Profiles.load(dir, "bad")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.getMessage()).isEqualTo("bad.properties line 3: 'this is not a field' is not a field; write field = value");
        });
    }

    @Test
    void aPasswordIsRefusedInWords() throws IOException {
        write("leaky", "kind = staging\nredis = redis://r:6379\njdbc = jdbc:mysql://m:3306/orders\ndb-password = hunter2\n");
        assertThatThrownBy(() -> Profiles.load(dir, "leaky")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.line()).isEqualTo(4);
            assertThat(e.field()).isEqualTo("db-password");
            assertThat(e.getMessage()).startsWith("leaky.properties line 4, field 'db-password': a profile never holds a password")
                    .doesNotContain("hunter2");
        });
        write("leaky2", "kind = staging\nredis = redis://bob:hunter2@r:6379\njdbc = jdbc:mysql://m:3306/orders\n");
        assertThatThrownBy(() -> Profiles.load(dir, "leaky2")).hasMessageContaining("line 2, field 'redis': the URI carries a password")
                .hasMessageNotContaining("hunter2");
        write("leaky3", "kind = staging\nredis = redis://r:6379\njdbc = jdbc:mysql://m:3306/orders?user=a&password=hunter2\n");
        assertThatThrownBy(() -> Profiles.load(dir, "leaky3")).hasMessageContaining("line 3, field 'jdbc': a profile never holds a password")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void anUnknownKindIsRefusedNamingTheKinds() throws IOException {
        write("odd", "colour = #123456\nkind = prod\n");
        assertThatThrownBy(() -> Profiles.load(dir, "odd")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.field()).isEqualTo("kind");
            assertThat(e.getMessage()).isEqualTo("odd.properties line 2, field 'kind': unknown environment kind 'prod' "
                    + "(local, dev, staging or production)");
        });
    }

    @Test
    void halfConfiguredServersAreRefusedAsTheFlagsAre() throws IOException {
        write("half", "kind = dev\nredis = redis://r:6379\n");
        assertThatThrownBy(() -> Profiles.load(dir, "half")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.field()).isEqualTo("jdbc");
            assertThat(e.getMessage()).startsWith("half.properties: field 'redis' is given without 'jdbc': give both");
        });
    }

    @Test
    void otherFaultsNameTheirFieldAndLine() throws IOException {
        write("a", "kind = dev\ncolor = red\n");
        assertThatThrownBy(() -> Profiles.load(dir, "a")).hasMessage("a.properties line 2, field 'colour': 'red' is not a colour; "
                + "write #rrggbb, e.g. #c62828");
        write("b", "kind = dev\nhost = x\n");
        assertThatThrownBy(() -> Profiles.load(dir, "b")).hasMessageStartingWith("b.properties line 2, field 'host': unknown field");
        write("c", "kind = dev\nkind = staging\n");
        assertThatThrownBy(() -> Profiles.load(dir, "c")).hasMessage("c.properties line 2, field 'kind': given twice (first on line 1)");
        write("d", "colour = #123456\n");
        assertThatThrownBy(() -> Profiles.load(dir, "d")).hasMessageStartingWith("d.properties: field 'kind' is missing");
        write("e", "name = other\nkind = dev\n");
        assertThatThrownBy(() -> Profiles.load(dir, "e")).hasMessage("e.properties line 1, field 'name': 'other' differs from the "
                + "file's name 'e'");
        write("f", "kind = production\n");
        assertThatThrownBy(() -> Profiles.load(dir, "f")).hasMessageContaining("a production profile names its servers");
        Files.write(dir.resolve("g.properties"), new byte[]{'k', 'i', 'n', 'd', '=', (byte) 0xC3, (byte) 0x28});
        assertThatThrownBy(() -> Profiles.load(dir, "g")).hasMessageContaining("is not UTF-8 text");
    }

    @Test
    void everyFaultOfAFileIsReportedAtOnce() throws IOException {
        write("many", "kind = prod\ncolour = red\nhost = x\nredis = redis://r:6379\n");
        assertThatThrownBy(() -> Profiles.load(dir, "many")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.faults()).hasSize(4);
            assertThat(e.faults().get(0)).startsWith("many.properties line 3, field 'host': unknown field");
            assertThat(e.faults().get(1)).startsWith("many.properties line 1, field 'kind': unknown environment kind 'prod'");
            assertThat(e.faults().get(2)).startsWith("many.properties line 2, field 'colour': 'red' is not a colour");
            assertThat(e.faults().get(3)).startsWith("many.properties: field 'redis' is given without 'jdbc'");
            assertThat(e.line()).as("the first fault's line").isEqualTo(3);
            assertThat(e.getMessage()).startsWith("the profile has 4 faults:").contains(e.faults().get(0)).contains(e.faults().get(3));
        });
    }

    @Test
    void aMissingProfileNamesThoseThereAre() throws IOException {
        write("dev", "kind = dev\n");
        write("staging", "kind = staging\nredis = redis://r:6379\njdbc = jdbc:mysql://m:3306/o\n");
        assertThatThrownBy(() -> Profiles.load(dir, "prod")).hasMessageContaining("no profile 'prod'")
                .hasMessageContaining("profiles there: dev, staging");
        assertThatThrownBy(() -> Profiles.load(dir, "../etc/passwd")).hasMessageContaining("is not a profile name");
    }

    @Test
    void oneBadFileHidesNoGoodOne() throws IOException {
        write("dev", "kind = dev\n");
        write("broken", "kind = nope\n");
        write("staging", "kind = staging\nredis = redis://r:6379\njdbc = jdbc:mysql://m:3306/o\ndb-user = bob\n");
        Files.writeString(dir.resolve("notes.txt"), "not a profile");
        Profiles.Listing l = Profiles.list(dir);
        assertThat(l.profiles()).extracting(Profile::name).containsExactly("dev", "staging");
        assertThat(l.faults()).singleElement().satisfies(e -> assertThat(e.getMessage()).startsWith("broken.properties line 1"));
        assertThat(Profiles.list(dir.resolve("none")).empty()).as("no directory: start as today").isTrue();
    }
}
