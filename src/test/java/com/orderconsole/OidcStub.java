package com.orderconsole;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OIDC identity provider in the test's process, on Nimbus and the JDK's HTTP server on loopback: it serves the discovery
 * document ({@code <issuer>/.well-known/openid-configuration}) and its key set ({@code <issuer>/jwks}), rotates its RSA
 * keys on demand, and mints access tokens with the claims a test chooses, signed as a real provider would, or wrongly
 * (another key, HMAC, {@code alg: none}). For serve's API tests, and later the CLI's and the console's. Close it after.
 *
 * <pre>
 * try (OidcStub idp = OidcStub.start()) {
 *     String token = idp.token().subject("u-1").username("alice").groups("console-support").mint();
 * }
 * </pre>
 */
public final class OidcStub implements AutoCloseable {
    /** The audience its tokens name unless told otherwise. */
    public static final String AUDIENCE = "order-console-api";
    /** The client (azp) its tokens name unless told otherwise. */
    public static final String CLIENT = "console-web";
    /** The console's public client (no secret) that signs people in: authorization code with PKCE, device grant, refresh. */
    public static final String PUBLIC_CLIENT = "order-console";

    private final HttpServer server;
    private final String issuer;
    /** The keys published, newest first; the first signs. */
    private final CopyOnWriteArrayList<RSAKey> published = new CopyOnWriteArrayList<>();
    private final AtomicInteger keySetReads = new AtomicInteger();
    private final AtomicInteger discoveryReads = new AtomicInteger();
    private final OidcStubGrants grants = new OidcStubGrants(this);

    private OidcStub(HttpServer server) {
        this.server = server;
        this.issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
    }

    /** @return a provider on a free loopback port with one signing key */
    public static OidcStub start() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            OidcStub stub = new OidcStub(s);
            stub.published.add(newKey());
            s.createContext("/realms/test/.well-known/openid-configuration", ex -> {
                stub.discoveryReads.incrementAndGet();
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("issuer", stub.issuer);
                doc.put("jwks_uri", stub.issuer + "/jwks");
                doc.put("token_endpoint", stub.issuer + "/token");
                doc.put("device_authorization_endpoint", stub.issuer + "/device");
                doc.put("authorization_endpoint", stub.issuer + "/auth");
                doc.put("response_types_supported", List.of("code"));
                doc.put("subject_types_supported", List.of("public"));
                doc.put("grant_types_supported", List.of("authorization_code", "refresh_token",
                        "urn:ietf:params:oauth:grant-type:device_code"));
                doc.put("code_challenge_methods_supported", List.of("S256"));
                doc.put("id_token_signing_alg_values_supported", List.of("RS256"));
                answer(ex, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(doc));
            });
            s.createContext("/realms/test/jwks", ex -> {
                stub.keySetReads.incrementAndGet();
                List<com.nimbusds.jose.jwk.JWK> pub = new ArrayList<>();
                stub.published.forEach(k -> pub.add(k.toPublicJWK()));
                answer(ex, new JWKSet(pub).toString());
            });
            stub.grants.install(s, "/realms/test");
            s.setExecutor(Executors.newFixedThreadPool(4, r -> {
                Thread t = new Thread(r, "oidc-stub");
                t.setDaemon(true);
                return t;
            }));
            s.start();
            return stub;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void answer(HttpExchange ex, String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /** @return a new 2048-bit RSA signing key with a random key id */
    public static RSAKey newKey() {
        try {
            return new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the issuer URL, as its tokens' iss says */
    public String issuer() {
        return issuer;
    }

    /** @return serve's settings for this provider: audience {@link #AUDIENCE}, claim {@code groups}, the given role map */
    public com.orderconsole.service.identity.OidcSettings settings(String roleMap) {
        return com.orderconsole.service.identity.OidcSettings.of(issuer, AUDIENCE, "groups", roleMap)
                .withTiming(Duration.ofSeconds(5), Duration.ofMillis(200));
    }

    /**
     * Rotates: a new key signs from now on and is published first; the old one stays published when {@code keepOld}
     * (as providers do for tokens still in flight), else it is withdrawn.
     *
     * @return the new key
     */
    public RSAKey rotate(boolean keepOld) {
        RSAKey k = newKey();
        published.add(0, k);
        if (!keepOld) {
            published.retainAll(List.of(k));
        }
        return k;
    }

    /** @return how often the key set was read */
    public int keySetReads() {
        return keySetReads.get();
    }

    /** @return how often the discovery document was read */
    public int discoveryReads() {
        return discoveryReads.get();
    }

    /**
     * The person the authorization endpoint and the device grant approve from now on (default alice in console-support).
     *
     * @return this provider
     */
    public OidcStub approve(String username, String... groups) {
        grants.username = username;
        grants.groups = List.of(groups);
        return this;
    }

    /**
     * @param error an OAuth error code the authorization endpoint answers with from now on (e.g. access_denied), or null to approve
     * @param description its description, or null
     * @return this provider
     */
    public OidcStub refuseAuthorization(String error, String description) {
        grants.refuseAuthorization = error == null ? null : new com.nimbusds.oauth2.sdk.ErrorObject(error, description, 302);
        return this;
    }

    /** @return this provider, whose access tokens live {@code lifetime} from now on (default 5 minutes) */
    public OidcStub accessTokenLifetime(Duration lifetime) {
        grants.accessLifetime = lifetime;
        return this;
    }

    /**
     * The device grant's answers to the next polls, in order, before the person is approved: {@code authorization_pending},
     * {@code slow_down}, or an end ({@code expired_token}, {@code access_denied}); none left means approved.
     *
     * @param interval seconds the client is told to wait between polls
     * @return this provider
     */
    public OidcStub deviceAnswers(int interval, String... answers) {
        grants.deviceInterval = interval;
        synchronized (grants.deviceScript) {
            grants.deviceScript.clear();
            grants.deviceScript.addAll(List.of(answers));
        }
        return this;
    }

    /** Ends every person's session: each refresh token handed out so far is refused (invalid_grant); new sign-ins work. */
    public void endSessions() {
        grants.refreshTokens.clear();
    }

    /** @return how many refreshes were granted */
    public int refreshes() {
        return grants.refreshes.get();
    }

    /** @return when the device grant's token requests came, in order */
    public List<Instant> devicePolls() {
        return List.copyOf(grants.devicePolls);
    }

    /** @return every code and token value handed out so far (codes, device codes, access, ID and refresh tokens) */
    public List<String> issued() {
        return List.copyOf(grants.issued);
    }

    /** @return a token of a person in group console-support, valid 5 minutes, to adjust and {@link Token#mint} */
    public Token token() {
        return new Token();
    }

    /** An access token being made: claims a test chooses, and how it is signed. */
    public final class Token {
        private final JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
        private RSAKey key;
        private JWSAlgorithm alg = JWSAlgorithm.RS256;
        private byte[] hmacSecret;
        private boolean unsigned;
        private boolean subjectChosen;

        private Token() {
            Instant now = Instant.now();
            claims.issuer(issuer).audience(AUDIENCE).claim("preferred_username", "alice")
                    .claim("azp", CLIENT).claim("groups", List.of("console-support")).issueTime(Date.from(now))
                    .notBeforeTime(Date.from(now.minusSeconds(1))).expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
                    .jwtID(UUID.randomUUID().toString());
        }

        /** Sets (or, with null, removes) a claim. */
        public Token claim(String name, Object value) {
            claims.claim(name, value);
            return this;
        }

        /** Sets the subject; unless set, it is {@code sub-<preferred_username>} (one person per name), else a random one. */
        public Token subject(String sub) {
            claims.subject(sub);
            subjectChosen = true;
            return this;
        }

        public Token username(String name) {
            return claim("preferred_username", name);
        }

        public Token groups(String... groups) {
            return claim("groups", List.of(groups));
        }

        public Token issuer(String iss) {
            claims.issuer(iss);
            return this;
        }

        public Token audience(String aud) {
            claims.audience(aud);
            return this;
        }

        /** Expiry relative to now (negative: expired). */
        public Token expiresIn(Duration d) {
            claims.expirationTime(Date.from(Instant.now().plus(d)));
            return this;
        }

        /** Not-before relative to now (positive: not yet valid). */
        public Token notBeforeIn(Duration d) {
            claims.notBeforeTime(Date.from(Instant.now().plus(d)));
            return this;
        }

        /** Signs with a key the provider does not publish. */
        public Token signedWith(RSAKey other) {
            this.key = other;
            return this;
        }

        /** Signs with HMAC-SHA256 and this secret (as a forger holding the secret, or a misconfigured provider, would). */
        public Token hmac(byte[] secret) {
            this.alg = JWSAlgorithm.HS256;
            this.hmacSecret = secret;
            return this;
        }

        /** Makes an unsigned token ({@code alg: none}). */
        public Token unsigned() {
            this.unsigned = true;
            return this;
        }

        /** @return the token's compact text */
        public String mint() {
            if (!subjectChosen) {
                Object name = claims.build().getClaim("preferred_username");
                claims.subject(name != null ? "sub-" + name : "u-" + UUID.randomUUID());
            }
            JWTClaimsSet set = claims.build();
            try {
                if (unsigned) {
                    return new PlainJWT(set).serialize();
                }
                if (hmacSecret != null) {
                    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).type(JOSEObjectType.JWT).build(), set);
                    jwt.sign(new MACSigner(hmacSecret));
                    return jwt.serialize();
                }
                RSAKey k = key != null ? key : published.get(0);
                SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).type(JOSEObjectType.JWT).keyID(k.getKeyID()).build(), set);
                jwt.sign(new RSASSASigner(k));
                return jwt.serialize();
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
