package com.orderconsole.bench;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.identity.OidcSettings;
import com.orderconsole.service.identity.OidcVerifier;
import com.sun.net.httpserver.HttpServer;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * People's OIDC tokens against API clients' tokens (serve's sign-in): transitions/s over the API with keep-alive at 64
 * connections, one serve taking both kinds, in alternating windows so that drift of the shared machine falls on both
 * sides alike. Each connection carries one person's RS256 access token (64 people), minted by a provider in this JVM
 * (discovery and key set on the JDK's HTTP server, loopback); after its first request a token is a cache hit, which is
 * what a console session is. Target: the JWT side at least 90 % of the API-client side.
 */
final class JwtApiScenario {
    static final int CONNECTIONS = 64;
    /** Windows per side, alternating. */
    static final int WINDOWS = 4;
    private static final String BODY = "{\"to\":\"PAID\"}";

    private final BenchEnv env;
    private final Table table;
    private final int perWindow;

    JwtApiScenario(BenchEnv env, Table table, int perWindow) {
        this.env = env;
        this.table = table;
        this.perWindow = perWindow;
    }

    void run() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).keyID("bench-1").generate();
        HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        String issuer = "http://127.0.0.1:" + idp.getAddress().getPort() + "/bench";
        idp.createContext("/bench/.well-known/openid-configuration", ex -> answer(ex,
                "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}"));
        idp.createContext("/bench/jwks", ex -> answer(ex, new JWKSet(key.toPublicJWK()).toString()));
        idp.start();
        try {
            Services s = env.fresh();
            String client = s.apiClients().add(Operator.system("bench"), "bench-jwt-" + System.nanoTime() % 100000, Role.SUPPORT).token();
            OidcSettings settings = OidcSettings.of(issuer, "order-console-api", "groups", "console-support=support");
            List<String> people = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                people.add(mint(key, issuer, "person" + c));
            }
            int total = perWindow * WINDOWS * 2 + perWindow * 2;
            long now = env.redis.nowMs();
            long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
            env.seedRedis(total, i -> BenchEnv.Seed.both(new OrderState(String.format("j%08d", i), OrderStatus.WAIT_PAY, 1, now, now), expire));
            try (ApiServer api = ApiServer.start(s, ApiServer.Settings.of("127.0.0.1", 0), new OidcVerifier(settings))) {
                List<HttpLoad> connections = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    connections.add(new HttpLoad(api.port()));
                }
                AtomicInteger next = new AtomicInteger();
                // Warm-up: one window per side, not counted.
                window(connections, c -> client, next, perWindow);
                window(connections, people::get, next, perWindow);
                double clientSum = 0;
                double jwtSum = 0;
                long failed = 0;
                List<String> pairs = new ArrayList<>();
                for (int w = 0; w < WINDOWS; w++) {
                    Window a = window(connections, c -> client, next, perWindow);
                    Window b = window(connections, people::get, next, perWindow);
                    clientSum += a.rate;
                    jwtSum += b.rate;
                    failed += a.failed + b.failed;
                    pairs.add(Table.num(a.rate, 0) + "/" + Table.num(b.rate, 0));
                }
                for (HttpLoad c : connections) {
                    c.close();
                }
                double clientRate = clientSum / WINDOWS;
                double jwtRate = jwtSum / WINDOWS;
                double ratio = jwtRate / clientRate;
                String how = CONNECTIONS + " connections, " + WINDOWS + " alternating windows of " + Table.num(perWindow, 0)
                        + " PAY per side after one warm-up window each (client/JWT per window: " + String.join(", ", pairs)
                        + "), " + failed + " not 200";
                table.add(Row.info("Sign-in: API client's opaque token, " + how, Table.num(clientRate, 0), "transitions/s"));
                table.add(Row.judged("Sign-in: people's OIDC access tokens (RS256, 64 people, verified once then cached), same serve",
                        Table.num(jwtRate, 0), "transitions/s", ">= 90 % of API client", Table.num(100 * ratio, 0) + " %",
                        ratio >= 0.9 && failed == 0));
            }
        } finally {
            idp.stop(0);
        }
    }

    private record Window(double rate, long failed) {
    }

    /** One closed-loop window: each connection's thread sends PAYs with its token until {@code n} are done. */
    private static Window window(List<HttpLoad> connections, java.util.function.IntFunction<String> token, AtomicInteger next, int n)
            throws InterruptedException {
        int end = next.get() + n;
        AtomicLong failed = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < connections.size(); c++) {
            HttpLoad conn = connections.get(c);
            String t = token.apply(c);
            Thread th = new Thread(() -> {
                int i;
                while ((i = next.getAndIncrement()) < end) {
                    try {
                        if (conn.post("/v1/orders/" + String.format("j%08d", i) + "/transitions", t, BODY) != 200) {
                            failed.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
            }, "api-load-" + c);
            th.start();
            threads.add(th);
        }
        for (Thread th : threads) {
            th.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        next.set(end);
        return new Window(n / seconds, failed.get());
    }

    static String mint(RSAKey key, String issuer, String name) throws Exception {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).audience("order-console-api").subject("sub-" + name)
                .claim("preferred_username", name).claim("azp", "console-web").claim("groups", List.of("console-support"))
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(3600))).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    static void answer(com.sun.net.httpserver.HttpExchange ex, String json) throws java.io.IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
