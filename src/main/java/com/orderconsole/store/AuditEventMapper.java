package com.orderconsole.store;

import org.apache.ibatis.annotations.Select;

import java.util.List;

/**
 * Reads for the audit view: recorded actions of {@code order_history} and {@code audit_log}, filtered and
 * keyset-paged newest first. Reads only; each filter has an index (actor, at_ms) / (source, at_ms) /
 * (result_code, at_ms) so a page is one range scan (V32).
 */
public interface AuditEventMapper {
    String KEYSET = "<if test='afterId != null'> AND (at_ms &lt; #{afterAtMs} OR (at_ms = #{afterAtMs} AND id &lt; #{afterId}))</if>";
    /**
     * Actor and source match exactly, byte for byte, on every server: the columns take the server's default utf8mb4
     * collation, which ignores case and accents (MariaDB's utf8mb4_general_ci pads trailing spaces too, MySQL 8's
     * utf8mb4_0900_ai_ci does not), so 'Bob' and 'bób ' answered for 'bob' on one server and not the same on the
     * other. The plain equality keeps the (actor, at_ms) / (source, at_ms) range scan; the utf8mb4_bin one drops what
     * the collation let through.
     */
    String COMMON = "<if test='actor != null'> AND actor = #{actor} AND actor COLLATE utf8mb4_bin = #{actor}</if>"
            + "<if test='source != null'> AND source = #{source} AND source COLLATE utf8mb4_bin = #{source}</if>"
            + "<if test='fromMs != null'> AND at_ms &gt;= #{fromMs}</if>"
            + "<if test='toMs != null'> AND at_ms &lt; #{toMs}</if>"
            + "<if test='idPrefix != null'> AND order_id LIKE CONCAT(#{idPrefix}, '%')</if>" + KEYSET;
    /**
     * With an order id prefix, the rows of those orders are found through the index that starts with order_id and
     * sorted (a few thousand at most for a real prefix); left to itself MariaDB walks idx_history_at backwards hoping
     * to meet them early, 2.5 s at a million rows when they are old (docs/benchmarks-history.md, bulk transitions and
     * the audit view).
     */
    String PREFIX_HINT = "<if test='idPrefix != null'> IGNORE INDEX FOR ORDER BY (idx_history_at, idx_history_actor_at, "
            + "idx_history_source_at, idx_history_code_at)</if>";
    String EDGES = "<foreach item='e' collection='edges' open='(' separator=',' close=')'>(#{e.from}, #{e.to})</foreach>";

    @Select("<script>SELECT 'H' AS kind, id, at_ms, actor, source, order_id, from_status, to_status, version, result_code, "
            + "NULL AS action, reason, '' AS detail, written_by, event_key FROM order_history" + PREFIX_HINT + " WHERE 1 = 1" + COMMON
            + "<if test='resultCode != null'> AND result_code = #{resultCode}</if>"
            + "<if test=\"moveKind == 'LEGAL'\"> AND result_code = 1 AND (from_status, to_status) IN " + EDGES + "</if>"
            + "<if test=\"moveKind == 'OVERRIDE'\"> AND result_code = 1 AND from_status IS NOT NULL AND (from_status, to_status) NOT IN "
            + EDGES + "</if>"
            + " ORDER BY at_ms DESC, id DESC LIMIT #{limit}</script>")
    List<AuditEventRow> history(AuditEventQuery q);

    @Select("<script>SELECT 'A' AS kind, id, at_ms, actor, source, order_id, NULL AS from_status, NULL AS to_status, "
            + "NULL AS version, NULL AS result_code, action, reason, detail, written_by, NULL AS event_key FROM audit_log WHERE 1 = 1" + COMMON
            + " ORDER BY at_ms DESC, id DESC LIMIT #{limit}</script>")
    List<AuditEventRow> auditLog(AuditEventQuery q);

    /**
     * The plan the server picks for {@link #history}, one row per table access with the columns key, rows and Extra
     * ({@code ${explain}} is {@link SqlDialect#explainTabular()}, set per server in {@link Database}).
     */
    @Select("<script>${explain} SELECT id FROM order_history" + PREFIX_HINT + " WHERE 1 = 1" + COMMON
            + "<if test='resultCode != null'> AND result_code = #{resultCode}</if>"
            + " ORDER BY at_ms DESC, id DESC LIMIT #{limit}</script>")
    List<java.util.Map<String, Object>> explainHistory(AuditEventQuery q);
}
