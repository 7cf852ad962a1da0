package com.orderconsole.service.client;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Access;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.store.ApiClientRow;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The clients of the HTTP API (issue 32): an admin adds one with a role (support or ops) and is shown its bearer token
 * once; MySQL keeps only the token's SHA-256 ({@code api_client}, V45). Each add and revoke is in the audit log.
 *
 * <p>Requests are authenticated against an in-memory copy of the table, read again every {@link #REFRESH} (one small
 * SELECT, not one per request): a revocation holds on every {@code serve} within {@link #REVOCATION_BOUND} of its
 * commit while MySQL answers. While MySQL does not answer the last copy stays in force (transitions go on from Redis),
 * and a revocation made meanwhile takes effect once MySQL answers again.
 */
public final class ApiClients implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiClients.class);
    /** How an API client is named as an actor. */
    public static final String ACTOR_PREFIX = OrderStore.API_ACTOR;
    /** A client's name: short, lowercase, safe in a log line and a header. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9._-]{0,47}");
    /** How often the in-memory copy is read again. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    /** The documented bound on a revocation reaching every serve: a refresh, plus a read that takes up to its timeout. */
    public static final Duration REVOCATION_BOUND = Duration.ofSeconds(5);
    /** Audit actions. */
    public static final String ADD = "API_CLIENT_ADD";
    public static final String REVOKE = "API_CLIENT_REVOKE";
    /** Prefix of every client token: a leaked one is recognisable in a log, and serve tells it from a JWT. */
    public static final String TOKEN_PREFIX = "oc_";

    private final Database db;
    private final Access access;
    private final SecureRandom random = new SecureRandom();
    /** The clients in force by token hash, replaced whole on every refresh, with the tokens verified against this copy. */
    private volatile InForce inForce = new InForce(Map.of());
    private volatile long loadedAtNanos;
    private ScheduledExecutorService refresher;

    /** Built by the wiring ({@code app.Services}). */
    public ApiClients(Database db, Access access) {
        this.db = db;
        this.access = access;
    }

    /**
     * A new client and its token, shown once.
     *
     * @param client the registered client
     * @param token the bearer token: {@code oc_} and 43 base64url characters (256 random bits); stored nowhere
     */
    public record Added(ApiClient client, String token) {
    }

    /**
     * Registers a client (admin only).
     *
     * @param admin who adds it; recorded in the audit log
     * @param name {@code [a-z][a-z0-9._-]{0,47}}
     * @param role support or ops
     * @return the client and its token
     * @throws IllegalArgumentException in words when the name or role is not allowed, or the name is taken
     * @throws com.orderconsole.domain.PermissionDeniedException when {@code admin} is not an admin
     */
    public Added add(Operator admin, String name, Role role) {
        access.require(admin, Role.ADMIN, "add an API client");
        requireName(name);
        if (role != Role.SUPPORT && role != Role.OPS) {
            throw new IllegalArgumentException("an API client's role is support or ops, not " + role.label());
        }
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        long now = System.currentTimeMillis();
        String roleName = role.name().toLowerCase(Locale.ROOT);
        boolean added = db.inTransaction(t -> {
            if (t.apiClients().all().stream().anyMatch(r -> r.name.equals(name))) {
                return false;
            }
            t.apiClients().add(new ApiClientRow(name, roleName, sha256(token), now, admin.name(), null));
            if (!t.apiClients().auditsItself()) {
                t.audit().append(new AuditRow(now, admin.name(), "cli", ADD, null, "", "api client " + name + " added as " + roleName));
            }
            return true;
        });
        if (!added) {
            throw new IllegalArgumentException("an API client named '" + name + "' exists already (names are never reused: "
                    + "revoked clients keep theirs in the history)");
        }
        refreshQuietly();
        return new Added(new ApiClient(name, role, now, admin.name(), null), token);
    }

    /**
     * @param who any signed-in operator (ops or higher: the list names who may write orders)
     * @return every client, revoked ones included, by name
     */
    public List<ApiClient> list(Operator who) {
        access.require(who, Role.OPS, "list the API clients");
        return db.read(t -> t.apiClients().all()).stream().map(ApiClients::client).toList();
    }

    /**
     * Revokes a client (admin only): its token is refused on every serve within {@link #REVOCATION_BOUND}.
     *
     * @return true when it was in force; false when it was revoked already
     * @throws IllegalArgumentException when no client has that name
     */
    public boolean revoke(Operator admin, String name) {
        access.require(admin, Role.ADMIN, "revoke an API client");
        requireName(name);
        long now = System.currentTimeMillis();
        Boolean revoked = db.inTransaction(t -> {
            if (t.apiClients().all().stream().noneMatch(r -> r.name.equals(name))) {
                return null;
            }
            boolean done = t.apiClients().revoke(name, now);
            if (done && !t.apiClients().auditsItself()) {
                t.audit().append(new AuditRow(now, admin.name(), "cli", REVOKE, null, "", "api client " + name + " revoked"));
            }
            return done;
        });
        if (revoked == null) {
            throw new IllegalArgumentException("no API client is named '" + name + "' (api-client list shows them)");
        }
        refreshQuietly();
        return revoked;
    }

    /**
     * Authenticates a bearer token against the in-memory copy (no MySQL round trip).
     *
     * @param token what followed "Bearer " in the Authorization header
     * @return the client in force that holds it; empty for an unknown, malformed or revoked token
     */
    public Optional<ApiClient> authenticate(String token) {
        if (token == null || !token.startsWith(TOKEN_PREFIX) || token.length() > 100) {
            return Optional.empty();
        }
        InForce now = inForce;
        // A token verified against this copy is not hashed again (a SHA-256 per request was a measurable share of the
        // API's CPU, BENCHMARKS.md issue 32); the next refresh starts an empty cache, so a revocation holds as before.
        ApiClient known = now.verified.get(token);
        if (known != null) {
            return Optional.of(known);
        }
        ApiClient c = now.byTokenHash.get(sha256(token));
        if (c != null) {
            now.verified.put(token, c); // only tokens in force: at most one entry per client
        }
        return Optional.ofNullable(c);
    }

    private record InForce(Map<String, ApiClient> byTokenHash, java.util.concurrent.ConcurrentHashMap<String, ApiClient> verified) {
        InForce(Map<String, ApiClient> byTokenHash) {
            this(byTokenHash, new java.util.concurrent.ConcurrentHashMap<>());
        }
    }

    /**
     * Reads the clients now and then every {@link #REFRESH}, until {@link #close}. Safe to call again.
     *
     * @throws RuntimeException when the first read fails (serve says why and does not start the API)
     */
    public synchronized void startRefreshing() {
        if (refresher != null) {
            return;
        }
        refresh();
        refresher = DaemonScheduler.create("api-clients");
        refresher.scheduleWithFixedDelay(this::refreshQuietly, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reads the table again and replaces the in-memory copy. */
    public void refresh() {
        Map<String, ApiClient> fresh = new HashMap<>();
        for (ApiClientRow r : db.read(t -> t.apiClients().all())) {
            if (r.revokedAtMs == null) {
                fresh.put(r.tokenSha256, client(r));
            }
        }
        inForce = new InForce(Map.copyOf(fresh));
        loadedAtNanos = System.nanoTime();
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.debug("API clients not read again (the last copy stays in force): {}", e.getMessage());
        }
    }

    /** @return how long ago the in-memory copy was read, or null before the first read */
    public Duration copyAge() {
        long at = loadedAtNanos;
        return at == 0 ? null : Duration.ofNanos(System.nanoTime() - at);
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }

    private static ApiClient client(ApiClientRow r) {
        return new ApiClient(r.name, Role.parse(r.role), r.addedAtMs, r.addedBy, r.revokedAtMs);
    }

    private static void requireName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("API client name '" + (name == null ? "" : name.replaceAll("\\p{Cntrl}", "?"))
                    + "' is not allowed: 1-48 characters, lowercase letters, digits, '.', '_' or '-', starting with a letter");
        }
    }

    /** @return SHA-256 of the token's UTF-8 bytes, 64 lowercase hex digits */
    static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }
}
