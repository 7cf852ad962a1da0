package com.orderconsole.service.rules;

import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.RulesStore;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The transition rules as data: a JSON document in Redis ({@code osm:rules}) and a per-bucket copy
 * that transition.lua reads. Every version is also archived in MySQL, so when Redis loses its data the
 * rules come back from there (the bundled default is used only when neither has any). Changing the
 * rules takes effect for the next transition; no restart.
 */
public final class RulesService implements Rules {
    private static final Logger log = LoggerFactory.getLogger(RulesService.class);
    private static final long CACHE_MS = 1000;

    private final RulesStore redis;
    private final Database db;
    private final Access access;
    private final AuditTrail audit;
    private volatile TransitionRules cached;
    private volatile long cachedAt;

    /** Built by the wiring ({@code app.Services}). */
    public RulesService(RulesStore redis, Database db, Access access, AuditTrail audit) {
        this.audit = audit;
        this.redis = redis;
        this.db = db;
        this.access = access;
    }

    /**
     * Makes sure Redis holds valid rules: the newest version of Redis' document and MySQL's archive wins
     * (a Redis restored from an old snapshot must not roll the rules back), the bundled default only when
     * neither has any; republishes the bucket copies when any is missing or behind.
     *
     * @return the rules in force
     * @throws InvalidRulesException when the stored document is invalid (it is left as it is, for a person to fix)
     */
    public TransitionRules ensureSeeded() {
        String json = redis.json();
        String archivedJson = db.read(t -> t.rulesArchive().latest());
        TransitionRules archived = archivedJson == null ? null : RulesJson.parse(archivedJson, 1);
        TransitionRules inRedis = json == null ? null : RulesJson.parse(json, 1);
        TransitionRules rules;
        if (inRedis != null && (archived == null || inRedis.version() >= archived.version())) {
            rules = inRedis;
        } else {
            rules = archived != null ? archived : TransitionRules.defaults();
            redis.setJson(RulesJson.write(rules));
            if (inRedis != null) {
                log.warn("Redis held transition rules version {} but MySQL's archive has version {}: Redis went back in time; "
                        + "restored version {}", inRedis.version(), rules.version(), rules.version());
            } else {
                log.info("{} transition rules version {} into Redis", archived != null ? "restored archived" : "seeded default",
                        rules.version());
            }
        }
        if (archived == null || archived.version() < rules.version()) {
            archive(rules, "system"); // only when missing: a support account may not write the archive
        }
        if (redis.publishedVersions().stream().anyMatch(v -> v == null || v != rules.version())) {
            publish(rules);
        }
        remember(rules);
        return rules;
    }

    /** Rewrites every bucket's copy from the stored document (after a Redis data loss or a -5 result). */
    public void republish() {
        ensureSeeded();
    }

    /** @return the rules in force, read from Redis at most once a second */
    public TransitionRules current() {
        TransitionRules r = cached;
        if (r == null || System.currentTimeMillis() - cachedAt > CACHE_MS) {
            String json = redis.json();
            r = json == null ? ensureSeeded() : RulesJson.parse(json, 1);
            remember(r);
        }
        return r;
    }

    /**
     * Validates a rules document without storing it.
     *
     * @return the rules it describes
     * @throws InvalidRulesException naming every fault
     */
    public TransitionRules validate(String json) {
        return RulesJson.parse(json, 1);
    }

    /**
     * Replaces the rules (role ops or higher). The new version is the stored one + 1, whatever the
     * document says; a document with the same graph as the rules in force changes nothing. Versions are claimed in the MySQL archive (primary key): when two operators apply
     * at once, the second is refused instead of both writing the same version.
     *
     * @param operator who changes them
     * @param json the new document
     * @return the rules now in force
     * @throws InvalidRulesException naming every fault; nothing stored changes then
     * @throws IllegalStateException when someone else set the rules meanwhile (reload and apply again)
     */
    public TransitionRules set(Operator operator, String json) {
        access.require(operator, Role.OPS, "change the transition rules");
        TransitionRules parsed = RulesJson.parse(json, 1);
        String stored = redis.json();
        TransitionRules inForce = stored == null ? ensureSeeded() : RulesJson.parse(stored, 1);
        if (inForce.sameRules(parsed)) {
            return inForce; // nothing changes: no new version
        }
        TransitionRules next = parsed.withVersion(inForce.version() + 1);
        // MySQL first: a rules version Redis knows but the archive does not could be lost with Redis.
        if (!archive(next, operator.name())) {
            throw new IllegalStateException("the rules were changed by someone else meanwhile (version " + next.version()
                    + " exists); reload them and apply again");
        }
        redis.setJson(RulesJson.write(next));
        publish(next);
        remember(next);
        audit.record(operator, "rules", AuditTrail.RULES_SET, null, "", "version " + inForce.version() + " -> " + next.version()
                + ": " + next.edges() + ", stuck " + next.stuck());
        log.info("{} set transition rules version {}: {}", operator.name(), next.version(), next.edges());
        return next;
    }

    /**
     * Changes the stuck thresholds, which are part of the rules: the rules in force with these thresholds
     * become the next version (role ops or higher), archived and in force for every process at once.
     *
     * @param operator who changes them
     * @param thresholds per status a positive duration; a status left out is never counted as stuck
     * @return the rules now in force
     * @throws InvalidRulesException when a threshold is not positive or set on a terminal status; nothing stored changes
     * @throws IllegalStateException when someone else set the rules meanwhile
     */
    public TransitionRules setStuckThresholds(Operator operator, Map<OrderStatus, java.time.Duration> thresholds) {
        access.require(operator, Role.OPS, "change the stuck thresholds");
        return set(operator, RulesJson.write(current().withStuck(thresholds)));
    }

    /** @return true when this version was recorded now, false when the archive already had it */
    private boolean archive(TransitionRules rules, String by) {
        String json = RulesJson.write(rules);
        return db.inTransaction(t -> t.rulesArchive().record(rules.version(), json, by, System.currentTimeMillis()));
    }

    private void publish(TransitionRules rules) {
        Map<Integer, String> edges = new LinkedHashMap<>();
        rules.edges().forEach((from, tos) -> edges.put(from.code(), codes(tos)));
        redis.publish(rules.version(), codes(rules.terminal()), edges);
    }

    private static String codes(Set<OrderStatus> s) {
        return s.stream().map(x -> Integer.toString(x.code())).sorted().collect(Collectors.joining(","));
    }

    private void remember(TransitionRules r) {
        cached = r;
        cachedAt = System.currentTimeMillis();
    }
}
