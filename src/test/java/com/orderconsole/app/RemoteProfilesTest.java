package com.orderconsole.app;

import com.orderconsole.domain.Environment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Remote profiles (serve's API instead of the stores): a good one is read whole; a bad one is refused in words naming file, line and keys. */
class RemoteProfilesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void inEnglish() {
        Messages.use(Locale.ENGLISH);
    }

    private void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name + ".properties"), text, StandardCharsets.UTF_8);
    }

    @Test
    void aRemoteProfileNamesServeAndTheIdentityProviderAndKeepsKindAndColour() throws IOException {
        write("prod-remote", """
                kind = production
                colour = #B71C1C
                server = https://orders.example.com/
                issuer = https://login.example.com/realms/shop
                client-id = order-console
                """);
        Profile p = Profiles.load(dir, "prod-remote");
        assertThat(p.remote()).isTrue();
        assertThat(p.signsInWithIssuer()).isTrue();
        assertThat(p.external()).as("no store of its own").isFalse();
        assertThat(p.environment()).isEqualTo(new Environment("prod-remote", Environment.Kind.PRODUCTION, "#b71c1c"));
        assertThat(p.server()).isEqualTo(URI.create("https://orders.example.com/"));
        assertThat(p.issuer()).isEqualTo(URI.create("https://login.example.com/realms/shop"));
        assertThat(p.clientId()).isEqualTo("order-console");
        assertThat(p.tokenCommand()).isNull();
        assertThat(p.redisUri()).isNull();
        assertThat(p.jdbcUrl()).isNull();
        assertThatThrownBy(() -> p.apply(EngineConfig.embeddedDefault(), ""))
                .as("a remote profile never turns into the embedded servers").hasMessageContaining("is remote (server)");
        assertThat(Profiles.list(dir).profiles()).as("the picker offers it").extracting(Profile::name).containsExactly("prod-remote");
    }

    @Test
    void aTokenCommandStandsInForIssuerAndClientIdAndLoopbackMayBePlainHttp() throws IOException {
        write("ci", "kind = staging\nserver = http://127.0.0.1:8080\ntoken-command = print-token --audience orders\n");
        Profile p = Profiles.load(dir, "ci");
        assertThat(p.remote()).isTrue();
        assertThat(p.signsInWithIssuer()).isFalse();
        assertThat(p.tokenCommand()).isEqualTo("print-token --audience orders");
        assertThat(p.server()).isEqualTo(URI.create("http://127.0.0.1:8080"));
        assertThat(p.issuer()).isNull();
    }

    @Test
    void serverBesideTheStoresIsRefusedNamingFileAndKeys() throws IOException {
        write("both", """
                kind = staging
                server = https://orders.example.com
                issuer = https://login.example.com
                client-id = oc
                redis = redis://r:6379
                jdbc = jdbc:mysql://m:3306/o
                db-user = alice
                """);
        ProfileException e = catchThrowableOfType(() -> Profiles.load(dir, "both"), ProfileException.class);
        assertThat(e.faults()).containsExactly(
                "both.properties line 5, field 'redis': a remote profile (server) works through serve's API and never reaches the stores:"
                        + " give either server, or redis and jdbc, not both",
                "both.properties line 6, field 'jdbc': a remote profile (server) works through serve's API and never reaches the stores:"
                        + " give either server, or redis and jdbc, not both",
                "both.properties line 7, field 'db-user': only for profiles of the stores (redis and jdbc); a remote profile (server)"
                        + " signs in with issuer and client-id, or a token-command");
        assertThat(e.file()).isEqualTo(dir.resolve("both.properties"));
    }

    @Test
    void badUrlsAreRefusedInWordsWithoutShowingAnAccount() throws IOException {
        write("urls", """
                kind = dev
                server = orders.example.com
                issuer = http://login.example.com/realms/shop
                client-id = order console
                """);
        ProfileException e = catchThrowableOfType(() -> Profiles.load(dir, "urls"), ProfileException.class);
        assertThat(e.faults()).containsExactly(
                "urls.properties line 2, field 'server': 'orders.example.com' is not a usable URL: write an absolute URL such as"
                        + " https://orders.example.com",
                "urls.properties line 3, field 'issuer': 'http://login.example.com/realms/shop' is not a usable URL: plain http would"
                        + " send people's tokens readable over the network; use https (http only for 127.0.0.1 or localhost)",
                "urls.properties line 4, field 'client-id': 'order console' is not a client id (printable characters, no blanks)");
        write("secret", "kind = dev\nserver = https://bob:hunter2@orders.example.com\ntoken-command = t\n");
        assertThatThrownBy(() -> Profiles.load(dir, "secret"))
                .hasMessage("secret.properties line 2, field 'server': 'https://***@orders.example.com' is not a usable URL: it carries"
                        + " an account or password; a profile never holds one")
                .hasMessageNotContaining("hunter2");
        write("query", "kind = dev\nserver = https://orders.example.com/?token=x\ntoken-command = t\n");
        assertThatThrownBy(() -> Profiles.load(dir, "query")).hasMessageContaining("a query or a fragment");
    }

    @Test
    void aRemoteProfileSaysHowPeopleSignInOnceAndCompletely() throws IOException {
        write("none", "kind = dev\nserver = https://orders.example.com\n");
        assertThatThrownBy(() -> Profiles.load(dir, "none")).hasMessage("none.properties line 2, field 'server': a remote profile names how"
                + " people sign in: issuer and client-id (the company's identity provider), or token-command");
        write("half", "kind = dev\nserver = https://orders.example.com\nissuer = https://login.example.com\n");
        assertThatThrownBy(() -> Profiles.load(dir, "half")).hasMessageStartingWith("half.properties line 3, field 'issuer': given without"
                + " 'client-id'");
        write("twoways", "kind = dev\nserver = https://orders.example.com\nclient-id = oc\ntoken-command = t\n");
        assertThatThrownBy(() -> Profiles.load(dir, "twoways")).hasMessage("twoways.properties line 4, field 'token-command': give either"
                + " token-command, or issuer and client-id, not both");
        write("stray", "kind = dev\nclient-id = oc\n");
        assertThatThrownBy(() -> Profiles.load(dir, "stray")).hasMessage("stray.properties line 2, field 'client-id': only for a remote"
                + " profile; add server = the URL of serve's API");
    }

    @Test
    void theStoresProfilesAreReadAsBefore() throws IOException {
        write("staging", "kind = staging\nredis = redis://r:6379\njdbc = jdbc:mysql://m:3306/o\n");
        Profile p = Profiles.load(dir, "staging");
        assertThat(p.remote()).isFalse();
        assertThat(p.server()).isNull();
        assertThat(new Profile(p.file(), p.environment(), p.redisUri(), p.jdbcUrl(), null, null, null, null, null))
                .as("the old constructor still builds a profile of the stores").isEqualTo(p);
    }
}
