package com.orderconsole.app.remote;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.OidcStub;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Role;
import com.orderconsole.service.identity.OidcVerifier;
import com.orderconsole.service.identity.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A person's sign-in for remote mode against an identity provider in the test's process: the browser sign-in (PKCE,
 * loopback redirect, state), the device grant, renewal before expiry, sign-out, and no token in any log line.
 */
class OidcSessionTest {
    private OidcStub idp;
    private final MovableClock clock = new MovableClock();

    /** A clock the test moves forward, so the session sees its access token age without the test waiting. */
    static final class MovableClock extends Clock {
        private volatile Instant now = Instant.now();

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @BeforeEach
    void start() {
        Messages.use(Locale.ENGLISH);
        idp = OidcStub.start();
    }

    @AfterEach
    void stop() {
        idp.close();
    }

    private OidcSession session() {
        return OidcSession.connect(URI.create(idp.issuer()), OidcStub.PUBLIC_CLIENT, OidcSession.DEFAULT_SCOPE, Duration.ofSeconds(5),
                clock, Duration.ofMillis(20));
    }

    @Test
    void theBrowserSignInGivesATokenServeAcceptsAndTheTabSaysToReturnToTheConsole() throws Exception {
        idp.approve("bob", "console-ops");
        OidcSession s = session();
        BrowserFollower browser = new BrowserFollower();
        List<URI> shown = new ArrayList<>();
        OidcSession.Who who = s.signInWithBrowser(browser, shown::add).orElseThrow();

        assertThat(who).isEqualTo(new OidcSession.Who("bob", "sub-bob", List.of("console-ops")));
        assertThat(s.who()).contains(who);
        assertThat(shown).as("the address, to show if no browser appears").containsExactly(browser.opened);
        String query = browser.opened.getRawQuery();
        assertThat(query).contains("code_challenge_method=S256").contains("code_challenge=").contains("state=")
                .contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A").contains("client_id=" + OidcStub.PUBLIC_CLIENT);
        assertThat(query).as("the verifier never leaves the console").doesNotContain("code_verifier");
        BrowserFollower.Page page = browser.page.get(5, TimeUnit.SECONDS);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("You are signed in to the Order State Console as bob. You may close this tab and return to the console.");

        Person person = new OidcVerifier(idp.settings("console-ops=ops")).verify(s.current());
        assertThat(person.role()).as("serve takes the token").isEqualTo(Role.OPS);
        assertThat(person.shownAs()).isEqualTo("bob");
        assertThat(s.current()).as("the same token while it is fresh").isEqualTo(s.current());
        assertThat(idp.refreshes()).isZero();
    }

    @Test
    void anAnswerWithAnotherStateIsRefusedAndTheTabSaysWhatWentWrong() throws Exception {
        OidcSession s = session();
        BrowserFollower forged = new BrowserFollower(u -> URI.create(u.toString().replaceFirst("state=[^&]*", "state=forged")));
        assertThatThrownBy(() -> s.signInWithBrowser(forged, u -> { }))
                .isInstanceOf(SignInRequiredException.class)
                .hasMessage("the answer that reached the console does not belong to the sign-in it started (its state differs),"
                        + " so nothing was accepted: sign in again");
        BrowserFollower.Page page = forged.page.get(5, TimeUnit.SECONDS);
        assertThat(page.status()).isEqualTo(400);
        assertThat(page.body()).contains("The sign-in to the Order State Console did not complete: the answer that reached the console"
                + " does not belong to the sign-in it started");
        assertThat(s.signedIn()).isFalse();
        assertThatThrownBy(s::current).hasMessage("not signed in: sign in with " + idp.issuer());
    }

    @Test
    void aRefusalAtTheProviderIsSaidInWordsInTheConsoleAndTheTab() throws Exception {
        idp.refuseAuthorization("access_denied", "The person is not assigned to this application");
        OidcSession s = session();
        BrowserFollower browser = new BrowserFollower();
        assertThatThrownBy(() -> s.signInWithBrowser(browser, u -> { }))
                .hasMessage("the identity provider at " + idp.issuer() + " refused the sign-in: The person is not assigned to this"
                        + " application (access_denied)");
        assertThat(browser.page.get(5, TimeUnit.SECONDS).body()).contains("did not complete")
                .contains("The person is not assigned to this application");
    }

    @Test
    void aSignInInProgressCanBeCancelled() throws Exception {
        OidcSession s = session();
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            s.cancel();
        });
        canceller.start();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> s.signInWithBrowser(u -> { }, u -> { })).hasMessage("the sign-in was cancelled");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        canceller.join();
    }

    @Test
    void theTokenIsRenewedWhenLessThanAMinuteIsLeftAndAnEndedSessionAsksForASignIn() {
        OidcSession s = session();
        s.signInWithBrowser(new BrowserFollower(), u -> { });
        String first = s.current();
        clock.advance(Duration.ofMinutes(3).plusSeconds(50));
        assertThat(s.current()).as("70 s left: kept").isEqualTo(first);
        assertThat(idp.refreshes()).isZero();
        clock.advance(Duration.ofSeconds(20));
        String second = s.current();
        assertThat(second).as("50 s left: renewed").isNotEqualTo(first);
        assertThat(idp.refreshes()).isEqualTo(1);
        assertThat(s.who().orElseThrow().name()).isEqualTo("alice");

        s.rejected(second);
        String third = s.current();
        assertThat(third).as("serve refused it: renewed at once").isNotEqualTo(second);
        assertThat(idp.refreshes()).isEqualTo(2);

        idp.endSessions();
        clock.advance(Duration.ofMinutes(4).plusSeconds(30));
        String ended = "your session at " + idp.issuer() + " ended (it refused to renew the sign-in: Session not active (invalid_grant)):"
                + " sign in again";
        assertThatThrownBy(s::current).isInstanceOf(SignInRequiredException.class).hasMessage(ended);
        assertThatThrownBy(s::current).as("it stays ended").hasMessage(ended);
        assertThat(s.signedIn()).isFalse();
        assertThat(s.who()).isEmpty();
    }

    @Test
    void whileTheProviderIsDownAValidTokenIsStillHandedOutThenASignInIsAskedFor() {
        OidcSession s = session();
        s.signInWithBrowser(new BrowserFollower(), u -> { });
        String token = s.current();
        idp.close();
        clock.advance(Duration.ofMinutes(4).plusSeconds(30));
        assertThat(s.current()).isEqualTo(token);
        clock.advance(Duration.ofMinutes(1));
        assertThatThrownBy(s::current).hasMessage("the sign-in expired and could not be renewed (cannot reach the identity provider at "
                + idp.issuer() + ": nothing answers there): sign in again once the identity provider answers");
    }

    @Test
    void signOutForgetsEveryToken() {
        OidcSession s = session();
        s.signInWithBrowser(new BrowserFollower(), u -> { });
        s.signOut();
        assertThat(s.signedIn()).isFalse();
        assertThat(s.who()).isEmpty();
        assertThatThrownBy(s::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("signed out: sign in with " + idp.issuer() + " to go on");
    }

    @Test
    void theDeviceGrantPrintsAddressAndCodeAndPollsAtTheProvidersPace() {
        idp.approve("carol", "console-admin").deviceAnswers(1, "authorization_pending", "slow_down", "authorization_pending");
        OidcSession s = session();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OidcSession.Who who = s.signInWithDeviceCode(new PrintStream(out, true, StandardCharsets.UTF_8)).orElseThrow();
        assertThat(who.name()).isEqualTo("carol");
        assertThat(who.groups()).containsExactly("console-admin");
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).containsPattern("To sign in, open " + java.util.regex.Pattern.quote(idp.issuer()) + "/device-page in a browser"
                + " on any device and enter the code [A-Z]{4}-[A-Z]{4}\\R");
        assertThat(printed).contains("Waiting for the sign-in to be approved; the code is valid for 10 minutes")
                .contains("The identity provider asks the console to check less often: every 6 s now");
        List<Instant> polls = idp.devicePolls();
        assertThat(polls).hasSize(4);
        // One provider second is 20 ms here: 1 s between polls, 6 s (120 ms) after slow_down.
        assertThat(Duration.between(polls.get(2), polls.get(3))).isGreaterThanOrEqualTo(Duration.ofMillis(115));
        assertThat(new OidcVerifier(idp.settings("console-admin=admin")).verify(s.current()).role()).isEqualTo(Role.ADMIN);
    }

    @Test
    void theDeviceGrantSaysInWordsWhenTheCodeExpiresOrIsRefused() {
        idp.deviceAnswers(1, "authorization_pending", "expired_token");
        OidcSession s = session();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> s.signInWithDeviceCode(quiet)).isInstanceOf(SignInRequiredException.class)
                .hasMessageMatching("the code [A-Z]{4}-[A-Z]{4} expired before the sign-in was approved: sign in again for a new code");
        idp.deviceAnswers(1, "access_denied");
        assertThatThrownBy(() -> s.signInWithDeviceCode(quiet))
                .hasMessageMatching("the sign-in with code [A-Z]{4}-[A-Z]{4} was refused at the identity provider: nobody is signed in");
        assertThat(s.signedIn()).isFalse();
    }

    @Test
    void anUnreachableProviderIsSaidInWords() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        URI nowhere = URI.create("http://127.0.0.1:" + port + "/realms/x");
        assertThatThrownBy(() -> OidcSession.connect(nowhere, "c")).isInstanceOf(SignInRequiredException.class)
                .hasMessage("cannot reach the identity provider at " + nowhere + ": nothing answers there");
    }

    @Test
    void noTokenOrCodeEverReachesTheLogOrTheTerminal() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level was = root.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        root.setLevel(Level.ALL);
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        try {
            OidcSession s = session();
            s.signInWithBrowser(new BrowserFollower(), u -> { });
            clock.advance(Duration.ofMinutes(4).plusSeconds(30));
            s.current();
            idp.deviceAnswers(1, "authorization_pending");
            s.signInWithDeviceCode(new PrintStream(terminal, true, StandardCharsets.UTF_8));
            s.rejected(s.current());
            s.current();
            idp.endSessions();
            s.rejected(s.current());
            assertThatThrownBy(s::current).isInstanceOf(SignInRequiredException.class);
            s.signOut();
        } finally {
            root.detachAppender(logged);
            root.setLevel(was);
        }
        StringBuilder all = new StringBuilder(terminal.toString(StandardCharsets.UTF_8));
        for (ILoggingEvent e : logged.list) {
            all.append(e.getFormattedMessage()).append('\n');
            if (e.getThrowableProxy() != null) {
                all.append(ThrowableProxyUtil.asString(e.getThrowableProxy())).append('\n');
            }
        }
        assertThat(logged.list).as("the session says what it does").extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(m -> m.startsWith("Signed in at " + idp.issuer()));
        List<String> secrets = idp.issued();
        assertThat(secrets).hasSizeGreaterThan(10);
        for (String secret : secrets) {
            assertThat(all.toString()).as("a code or token in the log or on the terminal").doesNotContain(secret);
        }
    }
}
