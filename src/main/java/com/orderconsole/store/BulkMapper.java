package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.util.List;

/** MyBatis mapper for {@code bulk_batch} (counts updated in place) and the append-only {@code bulk_item}. */
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
