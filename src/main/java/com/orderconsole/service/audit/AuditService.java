package com.orderconsole.service.audit;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.AuditStore;
import com.orderconsole.store.AuditEventQuery;
import com.orderconsole.store.AuditEventRow;
import com.orderconsole.store.Database;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Every recorded action across orders, newest first: the order history and the audit log merged. Each table
 * is read with keyset paging on (at_ms, id) backed by an index per filter (V32), so a page costs the same at
 * a thousand rows or millions; the cursor keeps one position per table. Reads only; any role may look.
 */
public final class AuditService implements Audit {
    /** Rows per page in exports. */
    static final int EXPORT_PAGE = 1000;
    /** Ordering of the merged pages: newest first, history before audit log at the same millisecond, then by id. */
    private static final Comparator<AuditEventRow> NEWEST_FIRST = Comparator.comparingLong((AuditEventRow r) -> r.atMs).reversed()
            .thenComparing(r -> r.kind, Comparator.reverseOrder()) // "H" before "A"
            .thenComparing(Comparator.comparingLong((AuditEventRow r) -> r.id).reversed());

    private final Database db;
    /** The rules in force, for telling legal moves from overrides; only the move-kind filters ask. */
    private final Supplier<TransitionRules> rules;

    /**
     * Built by the wiring ({@code app.Services}). The rules come from Redis; while Redis does not answer,
     * from the newest version archived in MySQL, so the audit view keeps reading the durable record.
     */
    public AuditService(Database db, RulesService rules) {
        this.db = db;
        this.rules = () -> {
            try {
                return rules.current();
            } catch (RedisUnavailableException e) {
                return archivedRules(db);
            }
        };
    }

    private AuditService(Database db, Supplier<TransitionRules> rules) {
        this.db = db;
        this.rules = rules;
    }

    /**
     * The audit view on MySQL alone, for a process that does not connect to Redis (e.g. {@code audit} while Redis
     * is down): the rules are the newest version archived in MySQL (the defaults when none is).
     *
     * @param db connected, migrated database
     * @return an audit service that never touches Redis
     */
    public static AuditService onMySqlOnly(Database db) {
        return new AuditService(db, () -> archivedRules(db));
    }

    private static TransitionRules archivedRules(Database db) {
        String json = db.read(t -> t.rulesArchive().latest());
        return json == null ? TransitionRules.defaults() : RulesJson.parse(json, 1);
    }

    /**
     * One page of recorded actions.
     *
     * @param filter what to keep
     * @param cursor null for the first page, else {@link AuditPage#nextCursor()} of the previous one
     * @param limit rows per page, 1..1000
     * @return the page
     * @throws IllegalArgumentException for a bad limit or a cursor this service did not hand out
     */
    public AuditPage page(AuditFilter filter, String cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
        Cursor c = Cursor.parse(cursor);
        AuditEventQuery h = query(filter, limit, c.historyAt, c.historyId);
        h.source = AuditSources.inHistory(filter.source());
        List<AuditEventRow> hist = c.historyDone ? List.of() : db.read(t -> t.auditEvents().history(h));
        List<AuditEventRow> acts = List.of();
        if (filter.includesActions() && !c.auditDone) {
            AuditEventQuery a = query(filter, limit, c.auditAt, c.auditId);
            a.source = AuditSources.inAuditLog(filter.source());
            acts = db.read(t -> t.auditEvents().auditLog(a));
        }
        List<AuditEventRow> merged = new ArrayList<>(hist.size() + acts.size());
        merged.addAll(hist);
        merged.addAll(acts);
        merged.sort(NEWEST_FIRST);
        List<AuditEventRow> taken = merged.subList(0, Math.min(limit, merged.size()));
        Cursor next = c.copy();
        int takenH = 0;
        int takenA = 0;
        for (AuditEventRow r : taken) {
            if (r.kind.equals("H")) {
                next.historyAt = r.atMs;
                next.historyId = r.id;
                takenH++;
            } else {
                next.auditAt = r.atMs;
                next.auditId = r.id;
                takenA++;
            }
        }
        // A table is done when it returned less than a page and everything it returned was taken.
        next.historyDone = c.historyDone || hist.size() < limit && takenH == hist.size();
        next.auditDone = c.auditDone || !filter.includesActions() || acts.size() < limit && takenA == acts.size();
        String nextCursor = next.historyDone && next.auditDone ? null : next.encode();
        boolean stamped = taken.stream().anyMatch(r -> r.writtenBy != null);
        java.util.Set<String> followers = stamped ? db.read(t -> t.accounts().followers()) : java.util.Set.of();
        java.util.Set<String> apiClients = new java.util.HashSet<>();
        if (stamped && taken.stream().anyMatch(r -> r.actor != null && r.actor.startsWith(API_ACTOR))) {
            db.read(t -> t.apiClients().all()).forEach(client -> apiClients.add(API_ACTOR + client.name));
        }
        if (stamped && taken.stream().anyMatch(r -> r.actor != null && r.actor.startsWith(PERSON_ACTOR))) {
            apiClients.addAll(db.read(t -> t.accounts().people()));
        }
        return new AuditPage(taken.stream().map(r -> toEvent(r, followers, apiClients)).toList(), nextCursor);
    }

    private AuditEventQuery query(AuditFilter f, int limit, Long afterAt, Long afterId) {
        AuditEventQuery q = new AuditEventQuery();
        q.actor = f.actor();
        q.source = f.source();
        q.resultCode = f.code() == null ? null : f.code().code();
        q.fromMs = f.fromMs();
        q.toMs = f.toMs();
        // '_' is a LIKE wildcard and legal in ids: escape it so a prefix matches literally.
        q.idPrefix = f.idPrefix() == null ? null : f.idPrefix().replace("_", "\\_");
        if (f.moveKind() != MoveKind.ANY) {
            q.moveKind = f.moveKind().name();
            List<AuditEventQuery.Edge> edges = new ArrayList<>();
            rules.get().edges().forEach((from, tos) -> tos.forEach(to -> edges.add(new AuditEventQuery.Edge(from.code(), to.code()))));
            q.edges = edges;
        }
        q.afterAtMs = afterAt;
        q.afterId = afterId;
        q.limit = limit;
        return q;
    }

    /**
     * MariaDB's plan for the first page of the history with this filter (the move-kind condition aside): which
     * index it reads, for tests and the benchmark to check that paging never scans the table.
     *
     * @return one line per table access, "key=&lt;index&gt; rows=&lt;estimate&gt; extra=&lt;Extra&gt;"
     */
    public List<String> explainFirstPage(AuditFilter filter, int limit) {
        AuditEventQuery q = query(filter, limit, null, null);
        q.source = AuditSources.inHistory(filter.source());
        List<Map<String, Object>> plan = db.read(t -> t.auditEvents().explainHistory(q));
        return plan.stream().map(m -> "key=" + m.get("key") + " rows=" + m.get("rows") + " extra=" + m.get("Extra")).toList();
    }

    /** CSV columns of an export, in order. */
    public static final List<String> CSV_HEADER = List.of("at_utc", "kind", "actor", "source", "order_id", "from", "to", "version",
            "result_code", "result", "action", "reason", "detail", "written_by", "actor_unlike_writer");

    /**
     * Writes every matching action as CSV (header {@link #CSV_HEADER}), newest first, in pages of 1,000.
     *
     * @param cancelled polled between pages; a cancelled export ends early with what it wrote
     * @return rows written
     */
    public long exportCsv(AuditFilter filter, Writer out, BooleanSupplier cancelled) throws IOException {
        return AuditExport.csv(cursor -> page(filter, cursor, EXPORT_PAGE), out, cancelled);
    }

    /**
     * Writes every matching action as one JSON array, newest first, in pages of 1,000.
     *
     * @return rows written
     */
    public long exportJson(AuditFilter filter, OutputStream out, BooleanSupplier cancelled) throws IOException {
        return AuditExport.json(cursor -> page(filter, cursor, EXPORT_PAGE), out, cancelled);
    }

    /** How an API client acts (issue 32): {@code api:<name>}. */
    private static final String API_ACTOR = com.orderconsole.store.OrderStore.API_ACTOR;
    /** How a person acting through serve is named: {@code sso:<name> via <client>}. */
    private static final String PERSON_ACTOR = com.orderconsole.store.OrderStore.PERSON_ACTOR;

    private static AuditEvent toEvent(AuditEventRow r, java.util.Set<String> followers, java.util.Set<String> apiClients) {
        boolean h = r.kind.equals("H");
        return new AuditEvent(h ? AuditEvent.Kind.TRANSITION : AuditEvent.Kind.ACTION, r.id, r.atMs, r.actor, r.source, r.orderId,
                r.fromStatus == null ? null : OrderStatus.ofCode(r.fromStatus), r.toStatus == null ? null : OrderStatus.ofCode(r.toStatus),
                r.version, r.resultCode == null ? null : ResultCode.ofCode(r.resultCode), r.action, r.reason, r.detail, r.writtenBy,
                actorUnlike(h, r.actor, r.writtenBy, followers, apiClients));
    }

    /**
     * @see AuditEvent#actorUnlike()
     * @param followers logins the database recorded as running the follower (console_account, V39)
     * @param apiClients {@code api:<name>} of every registered API client (V45), revoked ones too, and every person serve
     *     recorded (V49): actors with no database login whose rows serve's account writes
     */
    static boolean actorUnlike(boolean history, String actor, String writtenBy, java.util.Set<String> followers,
                               java.util.Set<String> apiClients) {
        if (AuditStore.writtenByActor(writtenBy, actor)) {
            return false;
        }
        // An API client, or a person signed in with the identity provider, has no database login: serve (the follower's
        // account) writes their creations, audit rows and, through the outbox, their moves. Such a row is theirs when they
        // are registered (recorded) and the writer ran the follower.
        if (apiClients.contains(actor) && followers.contains(AuditStore.login(writtenBy))) {
            return false;
        }
        // The follower writes the history rows of everyone's transitions from the outbox, under its own account. What
        // a row says of itself (its event key, a job's name as actor) proves nothing: anyone could write it.
        return !(history && followers.contains(AuditStore.login(writtenBy)));
    }

    /** One keyset position per table, and whether the table is exhausted: "h:at:id|a:at:id", "-" for not started, "x" for done. */
    private static final class Cursor {
        Long historyAt;
        Long historyId;
        boolean historyDone;
        Long auditAt;
        Long auditId;
        boolean auditDone;

        static Cursor parse(String text) {
            Cursor c = new Cursor();
            if (text == null) {
                return c;
            }
            String[] parts = text.split("\\|", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("malformed page cursor");
            }
            try {
                Object[] h = side(parts[0]);
                Object[] a = side(parts[1]);
                c.historyDone = (Boolean) h[0];
                c.historyAt = (Long) h[1];
                c.historyId = (Long) h[2];
                c.auditDone = (Boolean) a[0];
                c.auditAt = (Long) a[1];
                c.auditId = (Long) a[2];
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("malformed page cursor");
            }
            return c;
        }

        private static Object[] side(String s) {
            if (s.equals("x")) {
                return new Object[]{true, null, null};
            }
            if (s.equals("-")) {
                return new Object[]{false, null, null};
            }
            String[] p = s.split(":");
            return new Object[]{false, Long.parseLong(p[0]), Long.parseLong(p[1])};
        }

        Cursor copy() {
            Cursor c = new Cursor();
            c.historyAt = historyAt;
            c.historyId = historyId;
            c.historyDone = historyDone;
            c.auditAt = auditAt;
            c.auditId = auditId;
            c.auditDone = auditDone;
            return c;
        }

        String encode() {
            return enc(historyDone, historyAt, historyId) + "|" + enc(auditDone, auditAt, auditId);
        }

        private static String enc(boolean done, Long at, Long id) {
            return done ? "x" : at == null ? "-" : at + ":" + id;
        }
    }
}
