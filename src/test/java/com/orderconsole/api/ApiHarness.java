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
public final class ApiHarness implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    public final Engine engine;
    ApiServer api;
    private final ApiServer.Settings settings;
    private final java.util.function.Function<ApiServer.Settings, ApiServer> starter;
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
        Authenticator auth = call -> {
            String token = ClientTokens.bearer(call);
            if (!token.startsWith("person:")) {
                return clients.authenticate(call);
            }
            String[] p = token.split(":");
            return new com.orderconsole.domain.Operator(p[1], Role.valueOf(p[2].toUpperCase(java.util.Locale.ROOT)));
        };
        this.settings = settings;
        this.starter = set -> ApiServer.start(engine.services(), set, auth);
        this.api = starter.apply(settings);
    }

    /** As serve runs: API clients' tokens and people's tokens checked by {@code oidc}, the failure limit in front. */
    ApiHarness(EngineConfig config, ApiServer.Settings settings, com.orderconsole.service.identity.OidcVerifier oidc) {
        this.engine = Engine.start(config.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(100)));
        this.settings = settings;
        this.starter = set -> ApiServer.start(engine.services(), set, oidc);
        this.api = starter.apply(settings);
    }

    /** Stops the API server (the engine runs on): requests are refused until {@link #startApi} (serve stopped). */
    public synchronized void stopApi() {
        if (api != null) {
            api.close();
            api = null;
        }
    }

    /**
     * Starts the API server again on the port it had (serve restarted behind the same address).
     *
     * @param port the port to listen on, e.g. {@link #port()} read before {@link #stopApi}
     */
    public synchronized void startApi(int port) {
        if (api == null) {
            ApiServer.Settings was = settings;
            api = starter.apply(new ApiServer.Settings(was.bind(), port, was.mysqlTimeout(), was.transitionTimeout(),
                    was.gapGrace(), was.environment()));
        }
    }

    /** On empty test servers, for a serve working in {@code environment}. */
    public static ApiHarness fresh(com.orderconsole.domain.Environment environment) {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2))
                .withEnvironment(environment));
    }

    /** On empty test servers, also taking people's tokens checked by {@code oidc}, as serve with --oidc-issuer does. */
    public static ApiHarness freshWithOidc(com.orderconsole.service.identity.OidcVerifier oidc) {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2)), oidc);
    }

    /** @return the token of a person with that role (see the constructor) */
    public static String person(String name, Role role) {
        return "person:" + name + ":" + role.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** On empty test servers. */
    public static ApiHarness fresh() {
        TestServers.reset();
        return new ApiHarness(TestServers.config(), Duration.ofSeconds(2));
    }

    /** @return a new client's token */
    public String client(String name, Role role) {
        return engine.services().apiClients().add(engine.operator(), name, role).token();
    }

    /** @return the port the API listens on now */
    public int port() {
        return api.port();
    }

    /** @return the base address of an API on {@code port} of this harness' host */
    public String baseAt(int port) {
        return "http://127.0.0.1:" + port;
    }

    /** @return the API's base address, e.g. http://127.0.0.1:40123 */
    public String base() {
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
        stopApi();
        engine.close();
    }
}
