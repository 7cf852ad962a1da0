package com.orderconsole.service.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks people's bearer access tokens with Nimbus JOSE+JWT: the signature against the keys the issuer publishes (its
 * {@code jwks_uri}, found through {@code /.well-known/openid-configuration}), then issuer, audience, expiry and
 * not-before within {@link OidcSettings#clockSkew()}, then the role claim ({@link TokenClaims}). Only public-key
 * signatures (RS*, PS*, ES*) are accepted: an unsigned token ({@code alg: none}) and an HMAC one are refused before any
 * key is looked at (a shared secret would let whoever holds it mint tokens).
 *
 * <p>The keys are cached; a token naming a key id not in the cache makes one fetch of the key set (at most one per
 * {@link OidcSettings#keyRefetchInterval()}), so the provider may rotate its keys with no restart. A verified token is
 * kept by its exact text until its {@code exp} (at most {@link #CACHE_MAX} of them), so a person's next requests cost a
 * map lookup. Nothing here logs a token or a claim's value.
 */
public final class OidcVerifier {
    private static final Logger log = LoggerFactory.getLogger(OidcVerifier.class);
    /** The signatures accepted: the provider's public keys only. */
    static final Set<JWSAlgorithm> ACCEPTED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    /** Most verified tokens kept; beyond it the expired ones go, and if none has, all. */
    static final int CACHE_MAX = 2_000;
    /** Longest a token's text may be: beyond it, it is refused unread. */
    static final int MAX_TOKEN_CHARS = 16_384;
    /** After a failed discovery, how long requests are answered 503 at once before it is tried again. */
    private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(5);
    private static final int HTTP_TIMEOUT_MS = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OidcSettings settings;
    private final TokenClaims claims;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(HTTP_TIMEOUT_MS))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final ConcurrentHashMap<String, Person> verified = new ConcurrentHashMap<>();
    private final Object discovering = new Object();
    private volatile Keys keys;
    private volatile long discoveryFailedAtNanos;
    private volatile String discoveryFailure;

    /** The issuer's key set and the processor that checks tokens against it. */
    private record Keys(String jwksUri, JWKSource<SecurityContext> source, DefaultJWTProcessor<SecurityContext> processor) {
    }

    /** @param settings issuer, audience, role claim and map, clock skew */
    public OidcVerifier(OidcSettings settings) {
        this.settings = settings;
        this.claims = new TokenClaims(settings);
    }

    /** @return the settings checked against */
    public OidcSettings settings() {
        return settings;
    }

    /**
     * Reads the issuer's discovery document and key set now, so that a wrong issuer shows in serve's log at start. A
     * failure is logged, not thrown: the first person's request tries again (API clients' tokens work meanwhile).
     */
    public void warmUp() {
        try {
            keys().source().get(new JWKSelector(new JWKMatcher.Builder().build()), null);
            log.info("OIDC issuer {}: keys read from {}", settings.issuer(), keys.jwksUri()); // i18n-ok: log
        } catch (TokenRefusedException | KeySourceException e) {
            log.warn("OIDC issuer {}: {}; people's tokens are answered 503 until it answers", settings.issuer(), e.getMessage()); // i18n-ok: log
        }
    }

    /**
     * @param token a bearer token's text
     * @return the person of a token verified before and not expired, else null (nothing is fetched or checked)
     */
    public Person cached(String token) {
        Person p = verified.get(token);
        return p != null && p.expiresAtMs() > System.currentTimeMillis() ? p : null;
    }

    /**
     * Checks a bearer token. May fetch the issuer's discovery document or key set (each bounded by 5 s).
     *
     * @param token the token's text, after {@code Bearer }
     * @return the person it names, with their console role
     * @throws TokenRefusedException {@code INVALID} in words saying which check failed (401), {@code NO_ROLE} when no
     *     group of theirs maps to a role (403), {@code UNAVAILABLE} when the provider did not answer (503)
     */
    public Person verify(String token) {
        Person known = cached(token);
        if (known != null) {
            return known;
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            throw invalid("the bearer token is over " + MAX_TOKEN_CHARS + " characters; it was not read");
        }
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException e) {
            throw invalid("the bearer token is neither an API client's token (oc_…) nor a JWT");
        }
        if (jwt instanceof PlainJWT) {
            throw invalid("the token is unsigned (alg none); only tokens the identity provider signed with its public key are accepted");
        }
        if (!(jwt instanceof SignedJWT signed)) {
            throw invalid("the token is encrypted (JWE); send the provider's signed access token");
        }
        JWSHeader header = signed.getHeader();
        JWSAlgorithm alg = header.getAlgorithm();
        if (JWSAlgorithm.Family.HMAC_SHA.contains(alg)) {
            throw invalid("the token is HMAC-signed (" + alg + "), with a shared secret; only tokens the identity provider signed "
                    + "with its public key (RS*, PS*, ES*) are accepted");
        }
        if (!ACCEPTED.contains(alg)) {
            throw invalid("the token is signed with " + alg + ", which is not accepted (RS256-512, PS256-512, ES256-512)");
        }
        Keys k = keys();
        String kid = header.getKeyID() == null ? "none" : TokenClaims.printable(header.getKeyID());
        try {
            if (k.source().get(new JWKSelector(JWKMatcher.forJWSHeader(header)), null).isEmpty()) {
                throw invalid("the token is signed with a key the identity provider does not publish (key id " + kid + ")");
            }
        } catch (RateLimitReachedException e) {
            throw invalid("the token is signed with a key the identity provider does not publish (key id " + kid + "; its keys "
                    + "were read again within the last " + settings.keyRefetchInterval().toSeconds() + " s)");
        } catch (KeySourceException e) {
            throw new TokenRefusedException(TokenRefusedException.Kind.UNAVAILABLE, "the identity provider's keys at " + k.jwksUri()
                    + " could not be read (" + e.getMessage() + "); the token could not be checked: send it again shortly");
        }
        JWTClaimsSet set;
        try {
            set = k.processor().process(signed, null);
        } catch (BadJWSException e) {
            throw invalid("the token's signature does not verify against the identity provider's key (key id " + kid + ")");
        } catch (BadJWTException e) {
            throw invalid(e.getMessage()); // TokenClaims' own words
        } catch (BadJOSEException | JOSEException e) {
            throw invalid("the token was not accepted: " + e.getMessage());
        }
        Person p = claims.person(set);
        remember(token, p);
        return p;
    }

    private void remember(String token, Person p) {
        if (verified.size() >= CACHE_MAX) {
            long now = System.currentTimeMillis();
            verified.values().removeIf(x -> x.expiresAtMs() <= now);
            if (verified.size() >= CACHE_MAX) {
                verified.clear(); // bounded: the next requests verify again
            }
        }
        verified.put(token, p);
    }

    private static TokenRefusedException invalid(String words) {
        return new TokenRefusedException(TokenRefusedException.Kind.INVALID, words);
    }

    /** @return the issuer's keys, discovering them on first use (or again after a failure, at most every 5 s) */
    private Keys keys() {
        Keys k = keys;
        if (k != null) {
            return k;
        }
        synchronized (discovering) {
            if (keys != null) {
                return keys;
            }
            if (discoveryFailure != null && System.nanoTime() - discoveryFailedAtNanos < DISCOVERY_RETRY.toNanos()) {
                throw new TokenRefusedException(TokenRefusedException.Kind.UNAVAILABLE, discoveryFailure);
            }
            try {
                keys = discover();
                discoveryFailure = null;
                return keys;
            } catch (TokenRefusedException e) {
                discoveryFailure = e.getMessage();
                discoveryFailedAtNanos = System.nanoTime();
                throw e;
            }
        }
    }

    private Keys discover() {
        String base = settings.issuer().endsWith("/") ? settings.issuer().substring(0, settings.issuer().length() - 1) : settings.issuer();
        String where = base + "/.well-known/openid-configuration";
        JsonNode doc;
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(where)).timeout(Duration.ofMillis(HTTP_TIMEOUT_MS))
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw unavailable("the identity provider answered " + r.statusCode() + " for " + where);
            }
            doc = JSON.readTree(r.body());
        } catch (java.io.IOException e) {
            throw unavailable("the identity provider's discovery document at " + where + " could not be read ("
                    + com.orderconsole.domain.Failures.message(e) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted while reading " + where);
        }
        String issuer = doc.path("issuer").asText("");
        if (!issuer.equals(settings.issuer())) {
            throw unavailable("the discovery document at " + where + " names issuer '" + TokenClaims.printable(issuer)
                    + "', not the configured --oidc-issuer '" + settings.issuer() + "' (they must be equal, character for character)");
        }
        String jwksUri = doc.path("jwks_uri").asText("");
        URL url;
        try {
            URI u = URI.create(jwksUri);
            if (!"https".equals(u.getScheme()) && !("http".equals(u.getScheme()) && settings.issuer().startsWith("http:"))) {
                throw new IllegalArgumentException("not https");
            }
            url = u.toURL();
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw unavailable("the discovery document at " + where + " has no usable jwks_uri ('" + TokenClaims.printable(jwksUri) + "')");
        }
        JWKSource<SecurityContext> source = JWKSourceBuilder.<SecurityContext>create(url,
                        new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, 512 * 1024))
                .rateLimited(settings.keyRefetchInterval().toMillis())
                .build();
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        // Access tokens say "JWT" or RFC 9068's "at+jwt", or nothing.
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"),
                new JOSEObjectType("application/at+jwt"), null));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ACCEPTED, source));
        processor.setJWTClaimsSetVerifier(claims);
        return new Keys(jwksUri, source, processor);
    }

    private static TokenRefusedException unavailable(String words) {
        return new TokenRefusedException(TokenRefusedException.Kind.UNAVAILABLE, words + "; the token could not be checked: send it again shortly");
    }

    /** @return an instant in words for a refusal, e.g. "2026-12-07T18:00:00Z" */
    static String at(long epochSeconds) {
        return Instant.ofEpochSecond(epochSeconds).toString();
    }
}
