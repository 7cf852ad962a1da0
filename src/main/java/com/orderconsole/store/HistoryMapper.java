package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

import java.util.List;

/**
 * MyBatis mapper for the append-only {@code order_history} table: it has inserts and selects only,
 * and an architecture test keeps it that way.
 */
public interface HistoryMapper {
    /**
     * Inserts one row unless its event_key exists. Meant for a batch session: the JDBC driver rewrites
     * the batch into multi-row inserts, which is much faster for bulk loads than a long foreach statement.
     */
    @Insert("INSERT IGNORE INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
            + "reason, at_ms, event_key) VALUES (#{orderId}, #{fromStatus}, #{toStatus}, #{version}, #{resultCode}, "
            + "#{actor}, #{source}, #{reason}, #{atMs}, #{eventKey})")
    int insertOneIgnore(HistoryRow row);

    /** Applied rows at the (order, version) of each entry given. */
    @Select("<script>SELECT id, order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, event_key "
            + "FROM order_history WHERE (order_id, applied_version) IN "
            + "<foreach item='e' collection='entries' open='(' separator=',' close=')'>(#{e.orderId}, #{e.version})</foreach></script>")
    List<HistoryRow> appliedAt(@Param("entries") List<com.orderconsole.domain.HistoryEntry> entries);

    /** Rows recorded under these event keys. */
    /** Whether any row's event key lies in [from, to): a range of the unique event-key index, one row read at most. */
    @Select("SELECT COUNT(*) FROM (SELECT 1 FROM order_history WHERE event_key >= #{from} AND event_key < #{to} LIMIT 1) x")
    int anyKeyIn(@Param("from") String from, @Param("to") String to);

    @Select("<script>SELECT id, order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, event_key "
            + "FROM order_history WHERE event_key IN "
            + "<foreach item='k' collection='keys' open='(' separator=',' close=')'>#{k}</foreach></script>")
    List<HistoryRow> byEventKeys(@Param("keys") List<String> keys);

    @Select("SELECT id, order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, event_key "
            + "FROM order_history WHERE order_id = #{id} ORDER BY id")
    List<HistoryRow> byOrder(@Param("id") String orderId);

    /** Applied transitions per edge since {@code sinceMs}. */
    @Select("SELECT from_status AS `key`, to_status AS key2, COUNT(*) AS n FROM order_history "
            + "WHERE at_ms >= #{sinceMs} AND result_code = 1 AND from_status IS NOT NULL GROUP BY from_status, to_status")
    List<CountRow> appliedEdgesSince(@Param("sinceMs") long sinceMs);

    /**
     * Transition attempts per result code since {@code sinceMs}, bucketed by minute: key = minute
     * (epoch ms / 60000), key2 = code. Creation rows (no from-status) are not transitions and are left out.
     */
    @Select("SELECT FLOOR(at_ms / 60000) AS `key`, result_code AS key2, COUNT(*) AS n FROM order_history "
            + "WHERE at_ms >= #{sinceMs} AND from_status IS NOT NULL GROUP BY FLOOR(at_ms / 60000), result_code")
    List<CountRow> perMinuteSince(@Param("sinceMs") long sinceMs);
    /**
     * The change feed's committed read: rows after an id, in id order. Run in auto-commit, so it sees what is
     * committed when it runs.
     */
    @Select("SELECT id, order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, event_key "
            + "FROM order_history WHERE id > #{after} ORDER BY id LIMIT #{limit}")
    List<HistoryRow> after(@Param("after") long after, @Param("limit") int limit);

    /**
     * The change feed's in-flight read: ids after an id, in id order, read at READ UNCOMMITTED, so it also sees rows of
     * transactions still open. An id here and not in {@link #after} belongs to a transaction not committed yet.
     */
    @Select("SELECT id FROM order_history WHERE id > #{after} ORDER BY id LIMIT #{limit}")
    List<Long> idsAfter(@Param("after") long after, @Param("limit") int limit);

    /** The highest id inserted, committed or not (at READ UNCOMMITTED); 0 when none. */
    @Select("SELECT COALESCE(MAX(id), 0) FROM order_history")
    long maxId();

    /** The next id InnoDB will hand out (its auto-increment counter); null when the account cannot see it. */
    @Select("SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'order_history'")
    Long nextId();
}
