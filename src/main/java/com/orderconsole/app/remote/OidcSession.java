package com.orderconsole.app.remote;

import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.orderconsole.app.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A person's session with the company's identity provider, for remote mode: they sign in in the system browser
 * (authorization code with PKCE and a loopback redirect) or, at a terminal, with a device code; the session then hands
 * serve an access token, renewing it with the refresh token when less than a minute of it is left. Tokens live in this
 * object's memory only, are never logged or written anywhere, and {@link #signOut()} forgets them. Thread-safe; every
 * method that talks to the provider blocks, so the console calls them off the JavaFX thread.
 */
public final class OidcSession implements AccessTokens {
    private static final Logger log = LoggerFactory.getLogger(OidcSession.class);

    /** An access token with less than this left is renewed before it is handed out. */
    public static final Duration REFRESH_BEFORE = Duration.ofMinutes(1);
    /** The scopes asked for: who the person is, and a refresh token so a working day needs one sign-in. */
    public static final String DEFAULT_SCOPE = "openid profile email offline_access";
    /** Connect and read timeout of each request to the identity provider. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** How long the person has to finish signing in in the browser. */
    public static final Duration BROWSER_TIMEOUT = Duration.ofMinutes(5);

    /**
     * Who signed in, from the provider's ID token (its signature, issuer, audience and expiry checked).
     *
     * @param name preferred_username, else email, else name, else the subject: what the band shows
     * @param subject the provider's stable id of the person ({@code sub})
     * @param groups the {@code groups} claim (empty when absent)
     */
    public record Who(String name, String subject, List<String> groups) {
        public Who {
            groups = List.copyOf(groups);
        }
    }

    /** What a sign-in or a renewal gave: the tokens, and who (null without an ID token). */
    record Grant(Tokens tokens, Who who) {
    }

    private final OidcProvider provider;
    private final Clock clock;
    private final Duration second;

    private AccessToken access;
    private Instant expires;
    private RefreshToken refresh;
    private Who who;
    /** Why a new sign-in is needed, in words, once the session ended; null before the first sign-in. */
    private String ended;
    private volatile LoopbackSignIn browser;
    private volatile Thread device;

    private OidcSession(OidcProvider provider, Clock clock, Duration second) {
        this.provider = provider;
        this.clock = clock;
        this.second = second;
    }

    /**
     * Reads the provider's discovery document; nobody is signed in yet.
     *
     * @param issuer the issuer URL (the profile's {@code issuer})
     * @param clientId the console's public client id there (the profile's {@code client-id})
     * @return a session to sign in with
     * @throws SignInRequiredException in words when the provider cannot be reached or has no usable discovery document
     */
    public static OidcSession connect(URI issuer, String clientId) {
        return connect(issuer, clientId, DEFAULT_SCOPE, DEFAULT_TIMEOUT);
    }

    /**
     * @param issuer the issuer URL
     * @param clientId the console's public client id
     * @param scope the scopes to ask for, blank-separated (e.g. an API scope the provider needs for serve's audience)
     * @param timeout connect and read timeout of each request to the provider
     * @return a session to sign in with
     * @throws SignInRequiredException in words when the provider cannot be reached or has no usable discovery document
     */
    public static OidcSession connect(URI issuer, String clientId, String scope, Duration timeout) {
        return connect(issuer, clientId, scope, timeout, Clock.systemUTC(), Duration.ofSeconds(1));
    }

    /** As {@link #connect(URI, String, String, Duration)}, on another clock and with the provider's second shortened (tests). */
    static OidcSession connect(URI issuer, String clientId, String scope, Duration timeout, Clock clock, Duration second) {
        return new OidcSession(OidcProvider.discover(issuer, clientId, Scope.parse(scope), timeout), clock, second);
    }

    /** @return the identity provider's issuer URL */
    public URI issuer() {
        return provider.issuer;
    }

    /**
     * Signs in in the system browser (authorization code with PKCE, loopback redirect); blocks until the person is done,
     * the sign-in is {@link #cancel() cancelled} or {@link #BROWSER_TIMEOUT} passes.
     *
     * @param opener opens the provider's sign-in page in the person's browser
     * @param whereToGo receives the sign-in address before the browser is asked, to show in case no browser appears
     * @return who signed in (empty when the provider sent no ID token)
     * @throws SignInRequiredException in words: refused, the answer's state differs, ID token wrong, timed out, cancelled,
     *     provider unreachable; the session held before stays as it was
     */
    public Optional<Who> signInWithBrowser(BrowserOpener opener, Consumer<URI> whereToGo) {
        return signInWithBrowser(opener, whereToGo, BROWSER_TIMEOUT);
    }

    /** As {@link #signInWithBrowser(BrowserOpener, Consumer)} with its own time limit. */
    public Optional<Who> signInWithBrowser(BrowserOpener opener, Consumer<URI> whereToGo, Duration timeout) {
        LoopbackSignIn s = new LoopbackSignIn(provider);
        browser = s;
        try {
            return Optional.ofNullable(install(s.run(opener, whereToGo, timeout), "browser"));
        } finally {
            browser = null;
        }
    }

    /**
     * Signs in with a device code (RFC 8628), for a terminal: prints the verification address and the code to
     * {@code out}, then waits for the person to approve it in any browser, polling at the provider's interval.
     *
     * @param out where the address, the code and the progress are printed (never a token)
     * @return who signed in (empty when the provider sent no ID token)
     * @throws SignInRequiredException in words: no device grant at this provider, code expired, access denied, refused,
     *     unreachable, cancelled (interrupted)
     */
    public Optional<Who> signInWithDeviceCode(PrintStream out) {
        device = Thread.currentThread();
        try {
            return Optional.ofNullable(install(new DeviceSignIn(provider, clock, second).run(out), "device code"));
        } finally {
            device = null;
            // A cancel that came as the sign-in ended must not interrupt whatever this thread does next.
            Thread.interrupted();
        }
    }

    /** Stops a sign-in in progress (browser or device code); it ends with "the sign-in was cancelled". */
    public void cancel() {
        LoopbackSignIn b = browser;
        if (b != null) {
            b.cancel();
        }
        Thread d = device;
        if (d != null) {
            d.interrupt();
        }
    }

    private synchronized Who install(Grant g, String how) {
        take(g);
        ended = null;
        log.info("Signed in at {} with the {} as {}", provider.issuer, how, who == null ? "(no ID token)" : who.name());
        return who;
    }

    /** Holds a grant's tokens: a renewal without a new refresh token or ID token keeps the ones held. */
    private void take(Grant g) {
        access = g.tokens().getAccessToken();
        long lifetime = access.getLifetime();
        expires = lifetime > 0 ? clock.instant().plusSeconds(lifetime) : expiryOf(access.getValue());
        if (g.tokens().getRefreshToken() != null) {
            refresh = g.tokens().getRefreshToken();
        }
        if (g.who() != null) {
            who = g.who();
        }
    }

    /** @return the expiry a JWT access token states (read for timing only, serve checks it), or null when unknown */
    private static Instant expiryOf(String token) {
        try {
            Date exp = JWTParser.parse(token).getJWTClaimsSet().getExpirationTime();
            return exp == null ? null : exp.toInstant();
        } catch (java.text.ParseException e) {
            return null;
        }
    }

    /** @return who is signed in, for the band; empty when nobody is or the provider sent no ID token */
    public synchronized Optional<Who> who() {
        return access == null ? Optional.empty() : Optional.ofNullable(who);
    }

    /** @return true while an access token is held (it may still need renewing) */
    public synchronized boolean signedIn() {
        return access != null;
    }

    /**
     * {@inheritDoc}
     * Renews with the refresh token first when less than {@link #REFRESH_BEFORE} is left. When the provider cannot be
     * reached the token held is handed out while it is still valid.
     */
    @Override
    public synchronized String current() {
        if (access == null) {
            throw new SignInRequiredException(ended != null ? ended : Messages.format("oidc.notSignedIn", provider.issuer));
        }
        Instant now = clock.instant();
        boolean valid = expires == null || now.isBefore(expires);
        if (expires != null && !now.plus(REFRESH_BEFORE).isBefore(expires)) {
            if (refresh == null) {
                if (valid) {
                    return access.getValue();
                }
                throw end(Messages.format("oidc.expiredNoRefresh", provider.issuer));
            }
            renew(valid);
        }
        return access.getValue();
    }

    private void renew(boolean stillValid) {
        OidcProvider.Answer a;
        try {
            a = provider.exchange(new RefreshTokenGrant(refresh));
        } catch (SignInRequiredException unreachable) {
            if (stillValid) {
                log.info("Could not renew the sign-in at {} yet; the access token held is still valid", provider.issuer);
                return;
            }
            // The refresh token is kept: the next call renews once the provider answers again.
            throw new SignInRequiredException(Messages.format("oidc.renewUnreachable", unreachable.getMessage()), unreachable);
        }
        if (a.tokens() == null) {
            log.info("The identity provider at {} refused to renew the sign-in: {}", provider.issuer, a.code());
            throw end(Messages.format("oidc.sessionEnded", provider.issuer, a.words()));
        }
        Who renewed;
        try {
            renewed = provider.who(a.tokens(), null);
        } catch (SignInRequiredException e) {
            throw end(e.getMessage());
        }
        take(new Grant(a.tokens(), renewed));
    }

    private SignInRequiredException end(String why) {
        access = null;
        refresh = null;
        expires = null;
        who = null;
        ended = why;
        return new SignInRequiredException(why);
    }

    @Override
    public synchronized void rejected(String token) {
        if (access == null || !access.getValue().equals(token)) {
            return;
        }
        if (refresh != null) {
            // Renew at the next current(), whatever the expiry says: serve no longer takes this one.
            expires = Instant.EPOCH;
        } else {
            end(Messages.format("oidc.rejected", provider.issuer));
        }
    }

    @Override
    public void signOut() {
        cancel();
        synchronized (this) {
            end(Messages.format("oidc.signedOut", provider.issuer));
        }
        log.info("Signed out of {}", provider.issuer);
    }
}
