package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.util.List;

/**
 * MyBatis mapper for {@code bulk_batch} (counts updated in place), the append-only {@code bulk_item} and
 * {@code bulk_plan}, and the read of the history rows a batch wrote.
 */
public interface BulkMapper {
    String BATCH_COLUMNS = "id, actor, source, started_at_ms, finished_at_ms, scope, target, override_rules, reason, matched, "
            + "applied, rejected, conflicts, failed, state, heartbeat_ms, UNIX_TIMESTAMP() * 1000 AS read_at_ms";
    /** The MySQL server's clock, epoch ms in whole seconds: heartbeats are written and judged by it alone. */
    String DB_NOW_MS = "UNIX_TIMESTAMP() * 1000";
    String ITEM_COLUMNS = "batch_id, order_id, seen_status, seen_version, outcome, result_code, version, at_ms, error";

    @Insert("INSERT INTO bulk_batch (actor, source, started_at_ms, scope, target, override_rules, reason, matched, state, heartbeat_ms) "
            + "VALUES (#{actor}, #{source}, #{startedAtMs}, #{scope}, #{target}, #{overrideRules}, #{reason}, #{matched}, #{state}, "
            + DB_NOW_MS + ")")
    @Options(useGeneratedKeys = true, keyProperty = "id", keyColumn = "id")
    int insertBatch(BulkBatchRow row);

    /** Counts, state, finish time and a heartbeat, only while the stored row is still RUNNING; returns rows changed. */
    @Update("UPDATE bulk_batch SET applied = #{applied}, rejected = #{rejected}, conflicts = #{conflicts}, failed = #{failed}, "
            + "state = #{state}, finished_at_ms = #{finishedAtMs}, heartbeat_ms = " + DB_NOW_MS + " WHERE id = #{id} AND state = 'RUNNING'")
    int updateBatch(BulkBatchRow row);

    /** Closes an abandoned batch: only while RUNNING with a heartbeat older than {@code leaseMs} by MySQL's clock. */
    @Update("UPDATE bulk_batch SET applied = #{b.applied}, rejected = #{b.rejected}, conflicts = #{b.conflicts}, failed = #{b.failed}, "
            + "state = 'ABANDONED', finished_at_ms = #{b.finishedAtMs} WHERE id = #{b.id} AND state = 'RUNNING' "
            + "AND heartbeat_ms < " + DB_NOW_MS + " - #{leaseMs}")
    int closeAbandoned(@Param("b") BulkBatchRow row, @Param("leaseMs") long leaseMs);

    @Insert("<script>INSERT INTO bulk_plan (batch_id, seq, order_id, seen_status, seen_version) VALUES "
            + "<foreach item='p' collection='rows' separator=','>(#{p.batchId}, #{p.seq}, #{p.orderId}, #{p.seenStatus}, "
            + "#{p.seenVersion})</foreach></script>")
    int insertPlan(@Param("rows") List<BulkPlanRow> rows);

    /** A batch's planned orders that have no item row, by position. */
    @Select("SELECT p.batch_id, p.seq, p.order_id, p.seen_status, p.seen_version FROM bulk_plan p "
            + "LEFT JOIN bulk_item i ON i.batch_id = p.batch_id AND i.order_id = p.order_id "
            + "WHERE p.batch_id = #{batchId} AND i.order_id IS NULL ORDER BY p.seq")
    List<BulkPlanRow> unrecorded(@Param("batchId") long batchId);

    /** History rows of these orders whose source is bulk and whose reason starts with {@code reasonPrefix}. */
    @Select("<script>SELECT id, order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, event_key "
            + "FROM order_history WHERE source = 'bulk' AND reason LIKE CONCAT(#{reasonPrefix}, '%') AND order_id IN "
            + "<foreach item='o' collection='orderIds' open='(' separator=',' close=')'>#{o}</foreach> ORDER BY id</script>")
    List<HistoryRow> historyOf(@Param("orderIds") List<String> orderIds, @Param("reasonPrefix") String reasonPrefix);

    /** Renews a RUNNING batch's heartbeat; returns rows changed (0 once it is no longer RUNNING). */
    @Update("UPDATE bulk_batch SET heartbeat_ms = " + DB_NOW_MS + " WHERE id = #{id} AND state = 'RUNNING'")
    int beat(@Param("id") long id);

    @Insert("<script>INSERT INTO bulk_item (" + ITEM_COLUMNS + ") VALUES "
            + "<foreach item='i' collection='rows' separator=','>(#{i.batchId}, #{i.orderId}, #{i.seenStatus}, #{i.seenVersion}, "
            + "#{i.outcome}, #{i.resultCode}, #{i.version}, #{i.atMs}, #{i.error})</foreach></script>")
    int insertItems(@Param("rows") List<BulkItemRow> rows);

    @Select("SELECT " + BATCH_COLUMNS + " FROM bulk_batch WHERE id = #{id}")
    BulkBatchRow findBatch(@Param("id") long id);

    /** Newest first, keyset on id. */
    @Select("<script>SELECT " + BATCH_COLUMNS + " FROM bulk_batch <where><if test='beforeId != null'>id &lt; #{beforeId}</if></where> "
            + "ORDER BY id DESC LIMIT #{limit}</script>")
    List<BulkBatchRow> batches(@Param("beforeId") Long beforeId, @Param("limit") int limit);

    /** One batch's items by order id, keyset; {@code outcome} null for all. */
    @Select("<script>SELECT " + ITEM_COLUMNS + " FROM bulk_item WHERE batch_id = #{batchId}"
            + "<if test='outcome != null'> AND outcome = #{outcome}</if>"
            + "<if test='afterOrderId != null'> AND order_id &gt; #{afterOrderId}</if>"
            + " ORDER BY order_id LIMIT #{limit}</script>")
    List<BulkItemRow> items(@Param("batchId") long batchId, @Param("outcome") String outcome,
                            @Param("afterOrderId") String afterOrderId, @Param("limit") int limit);
}
