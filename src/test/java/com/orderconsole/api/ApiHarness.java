package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Role;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One serve-equivalent for API tests: an engine with its own follower and sweeper on the test servers, and its own API
 * server on a free loopback port; plus a JDK HTTP client. Close it after the test.
 */
final class ApiHarness implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    final Engine engine;
    final ApiServer api;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiHarness(EngineConfig config, Duration gapGrace) {
        this(config, ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(gapGrace));
    }

    /**
     * With a person's token beside the clients' ones: {@code person:NAME:ROLE} acts as that person with that role (the
     * stand-in of a signed-in person, whom an identity provider vouches for in serve), any other as a client's token.
     */
    ApiHarness(EngineConfig config, ApiServer.Settings settings) {
        this.engine = Engine.start(config.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(100)));
        Authenticator clients = new ClientTokens(engine.services().apiClients());
        this.api = ApiServer.start(engine.services(), settings, call -> {
            String token = ClientTokens.bearer(call);
            if (!token.startsWith("person:")) {
                return clients.authenticate(call);
            }
            String[] p = token.split(":");
            return new com.orderconsole.domain.Operator(p[1], Role.valueOf(p[2].toUpperCase(java.util.Locale.ROOT)));
        });
    }

    /** As serve runs: API clients' tokens and people's tokens checked by {@code oidc}, the failure limit in front. */
    ApiHarness(EngineConfig config, ApiServer.Settings settings, com.orderconsole.service.identity.OidcVerifier oidc) {
        this.engine = Engine.start(config.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(100)));
        this.api = ApiServer.start(engine.services(), settings, oidc);
    }

    /** On empty test servers, for a serve working in {@code environment}. */
    static ApiHarness fresh(com.orderconsole.domain.Environment environment) {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2))
                .withEnvironment(environment));
    }

    /** On empty test servers, also taking people's tokens checked by {@code oidc}, as serve with --oidc-issuer does. */
    static ApiHarness freshWithOidc(com.orderconsole.service.identity.OidcVerifier oidc) {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2)), oidc);
    }

    /** @return the token of a person with that role (see the constructor) */
    static String person(String name, Role role) {
        return "person:" + name + ":" + role.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** On empty test servers. */
    static ApiHarness fresh() {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), Duration.ofSeconds(2));
    }

    /** @return a new client's token */
    String client(String name, Role role) {
        return engine.services().apiClients().add(engine.operator(), name, role).token();
    }

    String base() {
        return "http://127.0.0.1:" + api.port();
    }

    HttpResponse<String> post(String token, String path, String body) throws Exception {
        return send(token, HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> get(String token, String path) throws Exception {
        return send(token, HttpRequest.newBuilder(URI.create(base() + path)).GET());
    }

    HttpResponse<String> send(String token, HttpRequest.Builder b) throws Exception {
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.timeout(Duration.ofSeconds(40)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        api.close();
        engine.close();
    }
}
