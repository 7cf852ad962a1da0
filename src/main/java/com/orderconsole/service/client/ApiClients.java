package com.orderconsole.service.client;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.ApiRevocationStore;
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
 * The clients of the HTTP API: an admin adds one with a role (support or ops) and is shown its bearer token once; MySQL
 * keeps only the token's SHA-256 ({@code api_client}, V45). Each add and revoke is in the audit log.
 *
 * <p>Requests are authenticated against an in-memory copy of the table, read again every {@link #REFRESH} (one small
 * SELECT, not one per request), less the names revoked in Redis ({@link ApiRevocationStore}, one HGETALL per refresh).
 * A revoke commits in MySQL, then publishes the name in Redis, so it holds on every serve within
 * {@link #REVOCATION_BOUND} while either server answers that serve: MySQL going away right after a revoke does not keep
 * the token in force. A copy that neither server confirmed for longer than the bound is not trusted: every token is
 * refused as unverifiable ({@link UnverifiableException}) until one of them answers again.
 */
public final class ApiClients implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiClients.class);
    /** How an API client is named as an actor. */
    public static final String ACTOR_PREFIX = OrderStore.API_ACTOR;
    /** A client's name: short, lowercase, safe in a log line and a header. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9._-]{0,47}");
    /** How often the in-memory copy is read again. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    /** The documented bound on a revocation reaching every serve: a refresh (1 s), plus a read that takes up to its timeout. */
    public static final Duration REVOCATION_BOUND = Duration.ofSeconds(5);
    /** Audit actions. */
    public static final String ADD = "API_CLIENT_ADD";
    public static final String REVOKE = "API_CLIENT_REVOKE";
    /** Prefix of every client token: a leaked one is recognisable in a log, and serve tells it from a JWT. */
    public static final String TOKEN_PREFIX = "oc_";

    private final Database db;
    private final ApiRevocationStore revocations;
    private final Access access;
    private final SecureRandom random = new SecureRandom();
    /** The clients in force by token hash, replaced whole on every refresh, with the tokens verified against this copy. */
    private volatile InForce inForce = new InForce(Map.of());
    private volatile long loadedAtNanos;
    /** When MySQL's list, and when Redis' revocations, were last read (System.nanoTime; 0: never). */
    private volatile long mysqlReadAtNanos;
    private volatile long redisReadAtNanos;
    /** The names revoked in Redis as last read; refused whatever MySQL's copy says. */
    private volatile java.util.Set<String> revokedInRedis = java.util.Set.of();
    /** The names MySQL's last read had revoked, to publish in Redis when Redis lacks them (a Redis that lost its data). */
    private volatile Map<String, Long> revokedInMysql = Map.of();
    private ScheduledExecutorService refresher;
    /** Reads Redis' revocations on a thread of its own: a hung MySQL read never delays them. */
    private ScheduledExecutorService redisRefresher;

    /** Built by the wiring ({@code app.Services}); {@code revocations} may be null (revocations then reach serves through MySQL only). */
    public ApiClients(Database db, ApiRevocationStore revocations, Access access) {
        this.db = db;
        this.revocations = revocations;
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
     * What a revoke did.
     *
     * @param wasInForce true when the client was in force; false when it was revoked already
     * @param unpublished null when every serve learns it within {@link #REVOCATION_BOUND} (MySQL recorded it and Redis
     *     has it); otherwise, in words, why a serve that cannot read MySQL may keep accepting the token until it can
     */
    public record Revoked(boolean wasInForce, String unpublished) {
    }

    /**
     * Revokes a client (admin only): MySQL records it, then Redis is told, and every serve refuses its token within
     * {@link #REVOCATION_BOUND} while MySQL or Redis answers it.
     *
     * @return whether it was in force, and whether Redis has the revocation
     * @throws IllegalArgumentException when no client has that name
     */
    public Revoked revoke(Operator admin, String name) {
        access.require(admin, Role.ADMIN, "revoke an API client");
        requireName(name);
        long now = System.currentTimeMillis();
        Long[] at = {null};
        Boolean revoked = db.inTransaction(t -> {
            ApiClientRow row = t.apiClients().all().stream().filter(r -> r.name.equals(name)).findFirst().orElse(null);
            if (row == null) {
                return null;
            }
            boolean done = t.apiClients().revoke(name, now);
            at[0] = done ? now : row.revokedAtMs;
            if (done && !t.apiClients().auditsItself()) {
                t.audit().append(new AuditRow(now, admin.name(), "cli", REVOKE, null, "", "api client " + name + " revoked"));
            }
            return done;
        });
        if (revoked == null) {
            throw new IllegalArgumentException("no API client is named '" + name + "' (api-client list shows them)");
        }
        String unpublished = publish(name, at[0] == null ? now : at[0]);
        refreshQuietly();
        return new Revoked(revoked, unpublished);
    }

    /** Tells Redis; @return null when it has the revocation, otherwise why not, in words */
    private String publish(String name, long revokedAtMs) {
        if (revocations == null) {
            return "serves learn it from MySQL only (no Redis copy of the revocations here)";
        }
        try {
            revocations.publish(name, revokedAtMs);
            return null;
        } catch (RuntimeException e) {
            return "MySQL recorded the revocation but Redis did not take it (" + e.getMessage() + "): a serve refuses the "
                    + "token once it reads MySQL again, and one that cannot read MySQL keeps accepting it until it can; "
                    + "run 'api-client revoke " + name + "' again once Redis answers";
        }
    }

    /**
     * The API client list could not be checked: neither MySQL nor Redis answered this serve for longer than
     * {@link #REVOCATION_BOUND}, so a token revoked meanwhile could not be told from one in force.
     */
    public static final class UnverifiableException extends RuntimeException {
        UnverifiableException(String message) {
            super(message);
        }
    }

    /**
     * Authenticates a bearer token against the in-memory copy (no MySQL round trip).
     *
     * @param token what followed "Bearer " in the Authorization header
     * @return the client in force that holds it; empty for an unknown, malformed or revoked token
     * @throws UnverifiableException when neither MySQL nor Redis confirmed the copy within {@link #REVOCATION_BOUND}
     */
    public Optional<ApiClient> authenticate(String token) {
        if (token == null || !token.startsWith(TOKEN_PREFIX) || token.length() > 100) {
            return Optional.empty();
        }
        requireConfirmed();
        InForce now = inForce;
        // A token verified against this copy is not hashed again (a SHA-256 per request is a measurable share of the
        // API's CPU, BENCHMARKS.md); the next refresh starts an empty cache, so a revocation still holds.
        ApiClient known = now.verified.get(token);
        if (known == null) {
            known = now.byTokenHash.get(sha256(token));
            if (known != null) {
                now.verified.put(token, known); // only tokens in force: at most one entry per client
            }
        }
        return known == null || revokedInRedis.contains(known.name()) ? Optional.empty() : Optional.of(known);
    }

    private void requireConfirmed() {
        if (mysqlReadAtNanos == 0 && redisReadAtNanos == 0) {
            refreshQuietly(); // a process that does not refresh on a schedule reads once, on first use
        }
        long bound = REVOCATION_BOUND.toNanos();
        long now = System.nanoTime();
        long m = mysqlReadAtNanos;
        long r = revocations == null ? m : redisReadAtNanos;
        if (m != 0 && now - m <= bound || r != 0 && now - r <= bound) {
            return;
        }
        long newest = Math.max(m, r);
        throw new UnverifiableException("the API client list could not be checked: neither MySQL nor Redis has answered "
                + "this serve for " + (newest == 0 ? "ever" : (now - newest) / 1_000_000_000L + " s")
                + ", so a revoked token cannot be told from one in force; nothing was done, send it again once they answer");
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
        refresher.scheduleWithFixedDelay(this::refreshMysqlQuietly, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        redisRefresher = DaemonScheduler.create("api-client-revocations");
        redisRefresher.scheduleWithFixedDelay(this::refreshFromRedis, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Reads the table again and replaces the in-memory copy, then reads the revocations Redis holds (and gives Redis those
     * MySQL has and it lacks, as after Redis lost its data).
     *
     * @throws RuntimeException when MySQL does not answer (Redis' revocations are read all the same)
     */
    public void refresh() {
        try {
            refreshMysql();
        } finally {
            refreshFromRedis();
        }
    }

    private void refreshMysql() {
        Map<String, ApiClient> fresh = new HashMap<>();
        Map<String, Long> revokedHere = new HashMap<>();
        for (ApiClientRow r : db.read(t -> t.apiClients().all())) {
            if (r.revokedAtMs == null) {
                fresh.put(r.tokenSha256, client(r));
            } else {
                revokedHere.put(r.name, r.revokedAtMs);
            }
        }
        inForce = new InForce(Map.copyOf(fresh));
        revokedInMysql = Map.copyOf(revokedHere);
        loadedAtNanos = System.nanoTime();
        mysqlReadAtNanos = loadedAtNanos;
    }

    private void refreshMysqlQuietly() {
        try {
            refreshMysql();
        } catch (RuntimeException e) {
            log.debug("API clients not read again from MySQL (the last copy stays in force, less what Redis revoked): {}",
                    e.getMessage());
        }
    }

    private void refreshFromRedis() {
        if (revocations == null) {
            return;
        }
        try {
            Map<String, Long> inRedis = revocations.all();
            for (Map.Entry<String, Long> e : revokedInMysql.entrySet()) {
                if (!inRedis.containsKey(e.getKey())) {
                    revocations.publish(e.getKey(), e.getValue());
                }
            }
            revokedInRedis = java.util.Set.copyOf(inRedis.keySet());
            redisReadAtNanos = System.nanoTime();
        } catch (RuntimeException e) {
            log.debug("API client revocations not read from Redis: {}", e.getMessage());
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.debug("API clients not read again from MySQL (the last copy stays in force, less what Redis revoked): {}",
                    e.getMessage());
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
            redisRefresher.shutdownNow();
            refresher = null;
            redisRefresher = null;
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
