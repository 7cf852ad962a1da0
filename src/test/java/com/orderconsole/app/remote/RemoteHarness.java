package com.orderconsole.app.remote;

import com.orderconsole.OidcStub;
import com.orderconsole.TestServers;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.identity.OidcVerifier;

import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Remote mode on a real serve, for tests: serve's API ({@link ApiServer}, people's OIDC tokens from an {@link OidcStub}
 * and API clients' tokens) on an engine's in-process services, and {@link RemoteServices} through it, one per role (a
 * person {@code console-<role>} whose group maps to that role, acting as {@code sso:console-<role> via console-web}). Set
 * data up through {@link #local()} (serve's own services) and read or change it through {@link #as(Role)}, as a console
 * in remote mode does. Close it after the test.
 */
public final class RemoteHarness implements AutoCloseable {
    private final Engine ownEngine;
    private final Services local;
    private final ApiServer.Settings settings;
    private final Map<Role, RemoteServices> byRole = new EnumMap<>(Role.class);
    private final Map<Role, String> tokens = new EnumMap<>(Role.class);
    private final OidcStub idp = OidcStub.start();
    private final OidcVerifier oidc = new OidcVerifier(idp.settings(ROLE_MAP));
    private volatile ApiServer api;
    private int port;

    /** Groups of the stand-in provider's people, one per role. */
    static final String ROLE_MAP = "console-readers=read-only,console-support=support,console-ops=ops,console-admin=admin";

    private RemoteHarness(Engine ownEngine, Services local, Environment environment) {
        this.ownEngine = ownEngine;
        this.local = local;
        this.settings = ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2)).withEnvironment(environment);
        this.api = ApiServer.start(local, settings, oidc);
        this.port = api.port();
    }

    /** @return the stand-in identity provider (mint other people's tokens with it) */
    public OidcStub idp() {
        return idp;
    }

    /** @return serve on empty test servers with an engine of its own (closed with the harness) */
    public static RemoteHarness fresh() {
        return fresh(Environment.LOCAL);
    }

    /** @return serve on empty test servers for {@code environment} (its production guard), an engine of its own */
    public static RemoteHarness fresh(Environment environment) {
        Engine e = TestServers.freshEngine();
        return new RemoteHarness(e, e.services(), environment);
    }

    /**
     * @param services a running engine's services (the test closes the engine)
     * @return serve's API on them
     */
    public static RemoteHarness on(Services services) {
        return new RemoteHarness(null, services, Environment.LOCAL);
    }

    /** @return serve's in-process services: set data up and look at the stores with them */
    public Services local() {
        return local;
    }

    /** @return the engine this harness started, or null when it runs on the test's */
    public Engine engine() {
        return ownEngine;
    }

    /** @return an access token of the person {@code console-<role>} (valid for an hour, made on first use) */
    public synchronized String token(Role role) {
        return tokens.computeIfAbsent(role, r -> idp.token().username("console-" + r.label()).subject("console-" + r.label())
                .groups(group(r)).expiresIn(Duration.ofHours(1)).mint());
    }

    /** @return an API client's token ({@code oc_…}, acting as {@code api:NAME}); clients are support or ops */
    public String clientToken(String name, Role role) {
        return local.apiClients().add(Operator.system("test-setup"), name, role).token();
    }

    private static String group(Role r) {
        return switch (r) {
            case READ_ONLY -> "console-readers";
            case SUPPORT -> "console-support";
            case OPS -> "console-ops";
            case ADMIN -> "console-admin";
        };
    }

    /** @return a console's services through serve, acting as the person of {@code role} (one per role) */
    public synchronized RemoteServices as(Role role) {
        return byRole.computeIfAbsent(role, r -> new RemoteServices(client(r)));
    }

    /** @return a new HTTP client acting as the person of {@code role} */
    public ServeClient client(Role role) {
        return new ServeClient(URI.create(base()), new TestTokens(token(role)));
    }

    /** @return the actor serve stamps for {@code role}'s person, e.g. "sso:console-ops via console-web" */
    public static String actor(Role role) {
        return "sso:console-" + role.label() + " via " + OidcStub.CLIENT;
    }

    /** @return serve's base address, e.g. http://127.0.0.1:40123 (the same after a restart) */
    public String base() {
        return "http://127.0.0.1:" + port;
    }

    /** Stops serve's API (the engine runs on): requests are refused until {@link #startServe()}. */
    public synchronized void stopServe() {
        if (api != null) {
            api.close();
            api = null;
        }
    }

    /** Starts serve's API again on the port it had: serve restarted behind the same address. */
    public synchronized void startServe() {
        if (api == null) {
            api = ApiServer.start(local, new ApiServer.Settings(settings.bind(), port, settings.mysqlTimeout(),
                    settings.transitionTimeout(), settings.gapGrace(), settings.environment()), oidc);
        }
    }

    @Override
    public void close() {
        stopServe();
        idp.close();
        if (ownEngine != null) {
            ownEngine.close();
        }
    }
}
