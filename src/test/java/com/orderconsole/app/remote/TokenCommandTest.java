package com.orderconsole.app.remote;

import com.orderconsole.OidcStub;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A token command as a script's or a shop's sign-in tooling uses it: real programs run by the shell, their stdout the
 * token, their stderr passed on, failures in words that name the command and never the token.
 */
class TokenCommandTest {
    private static OidcStub idp;
    @TempDir
    Path dir;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @BeforeAll
    static void provider() {
        idp = OidcStub.start();
    }

    @AfterAll
    static void stop() {
        idp.close();
    }

    /** A clock the test moves. */
    static final class MovingClock extends Clock {
        Instant now = Instant.now();

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private TokenCommand command(String line) {
        return new TokenCommand(line, Duration.ofSeconds(20), err, Clock.systemUTC());
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    /** A command line that counts its runs in a file and prints "tok-N", N the run's number. */
    private String counting(Path counter) {
        return "n=$(( $(cat " + counter + " 2>/dev/null || echo 0) + 1 )); echo $n > " + counter + "; printf '  tok-%s\\n\\n' $n";
    }

    private int runs(Path counter) throws Exception {
        return Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
    }

    @Test
    void theTokenIsStdoutTrimmedAndKeptUntilRefused() throws Exception {
        Path counter = dir.resolve("runs");
        TokenCommand tokens = command(counting(counter));

        assertThat(tokens.current()).isEqualTo("tok-1");
        assertThat(tokens.current()).isEqualTo("tok-1");
        assertThat(runs(counter)).as("an opaque token is kept until serve refuses it").isEqualTo(1);

        tokens.rejected("tok-0"); // a token it no longer holds: nothing to drop
        assertThat(tokens.current()).isEqualTo("tok-1");
        tokens.rejected("tok-1");
        assertThat(tokens.current()).as("asked again after serve refused the held one").isEqualTo("tok-2");
        assertThat(runs(counter)).isEqualTo(2);

        tokens.signOut();
        assertThat(tokens.current()).as("sign-out forgets the token").isEqualTo("tok-3");
    }

    @Test
    void itsStderrIsPassedOnAndTheTokenNeverShown() {
        TokenCommand tokens = command("echo 'opening the browser to sign in' >&2; echo secret-token-value");

        assertThat(tokens.current()).isEqualTo("secret-token-value");
        assertThat(err()).contains("opening the browser to sign in").doesNotContain("secret-token-value");
    }

    @Test
    void aFailedRunIsSaidInWordsWithItsExitAndMessages() {
        TokenCommand tokens = command("echo 'refresh token expired, run corp-login' >&2; exit 3");

        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("the token command 'echo 'refresh token expired, run corp-login' >&2; exit 3' failed with exit 3; "
                        + "what it said is above");
        assertThat(err()).contains("refresh token expired, run corp-login");
    }

    @Test
    void aMissingProgramIsNamedAsSuch() {
        assertThatThrownBy(() -> command("no-such-sign-in-tool --print-token").current())
                .isInstanceOf(SignInRequiredException.class)
                .hasMessageContaining("'no-such-sign-in-tool --print-token' failed with exit 127: the shell did not find the program");
    }

    @Test
    void nothingPrintedIsAFailureInWords() {
        assertThatThrownBy(() -> command("printf '\\n  \\n'").current()).isInstanceOf(SignInRequiredException.class)
                .hasMessage("the token command 'printf '\\n  \\n'' printed nothing: it must print an access token on stdout");
    }

    @Test
    void aRunThatHangsIsStoppedAtTheTimeout() {
        TokenCommand tokens = new TokenCommand("sleep 30; echo late-token", Duration.ofMillis(500), err, Clock.systemUTC());
        long start = System.nanoTime();

        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessageStartingWith("the token command 'sleep 30; echo late-token' did not finish within 0.5 s and was stopped");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void printingSomethingElseIsRefusedWithoutEchoingIt() throws Exception {
        assertThatThrownBy(() -> command("echo 'Bearer: s3cret pass'").current()).isInstanceOf(SignInRequiredException.class)
                .hasMessage("the token command 'echo 'Bearer: s3cret pass'' printed something that is not an access token "
                        + "(only letters, digits and -._~+/= may be in one)");
        Path printed = dir.resolve("printed");
        Files.writeString(printed, "token-part-one\ntoken-part-two\n");
        assertThatThrownBy(() -> command("cat " + printed).current()).isInstanceOf(SignInRequiredException.class)
                .hasMessageContaining("printed 2 lines: it must print one access token on stdout (messages go to stderr)")
                .message().doesNotContain("token-part");
    }

    @Test
    void theSameTokenAfterARefusalIsSaidInWords() {
        TokenCommand tokens = command("echo stale-token");
        tokens.rejected(tokens.current());

        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("serve refused the access token the token command 'echo stale-token' printed, and it printed the "
                        + "same token again: its sign-in has ended or the token is not for this serve");
    }

    @Test
    void aJwtIsAskedForAgainShortlyBeforeItExpires() throws Exception {
        Path counter = dir.resolve("runs");
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, idp.token().subject("u-1").expiresIn(Duration.ofMinutes(10)).mint());
        MovingClock clock = new MovingClock();
        TokenCommand tokens = new TokenCommand("echo x >> " + counter + "; cat " + tokenFile, Duration.ofSeconds(20), err, clock);

        String first = tokens.current();
        clock.now = clock.now.plus(Duration.ofMinutes(8));
        assertThat(tokens.current()).isEqualTo(first);
        assertThat(Files.readAllLines(counter)).hasSize(1);

        clock.now = clock.now.plus(Duration.ofSeconds(90)); // 30 s before exp: inside the renewal window
        String renewed = idp.token().subject("u-1").expiresIn(Duration.ofMinutes(10)).mint();
        Files.writeString(tokenFile, renewed);
        assertThat(tokens.current()).isEqualTo(renewed);
        assertThat(Files.readAllLines(counter)).hasSize(2);
    }

    @Test
    void anOAuthTokenResponseGivesTheTokenAndItsLifetime() throws Exception {
        Path counter = dir.resolve("runs");
        MovingClock clock = new MovingClock();
        TokenCommand tokens = new TokenCommand("echo x >> " + counter
                + "; echo '{\"access_token\": \"opaque-abc\", \"token_type\": \"Bearer\", \"expires_in\": 300}'",
                Duration.ofSeconds(20), err, clock);

        assertThat(tokens.current()).isEqualTo("opaque-abc");
        clock.now = clock.now.plus(Duration.ofSeconds(200));
        tokens.current();
        assertThat(Files.readAllLines(counter)).hasSize(1);
        clock.now = clock.now.plus(Duration.ofSeconds(50)); // 50 s before expires_in ends
        tokens.current();
        assertThat(Files.readAllLines(counter)).hasSize(2);

        assertThatThrownBy(() -> command("echo '{\"token\": \"x\"}'").current()).isInstanceOf(SignInRequiredException.class)
                .hasMessageContaining("printed JSON without a text access_token");
    }

    @Test
    void aBlankCommandIsRefused() {
        assertThatThrownBy(() -> command("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the token command is empty: name a program that prints an access token");
    }
}
