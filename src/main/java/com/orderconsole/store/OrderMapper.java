package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.util.List;

/** MyBatis mapper for the {@code orders} table. */
public interface OrderMapper {
    String COLUMNS = "order_id, customer_id, status, version, created_at_ms, status_since_ms, expire_at_ms, redis_ready";

    /** Inserts unless the id exists. @return 1 inserted, 0 already there */
    @Insert("INSERT IGNORE INTO orders (" + COLUMNS + ") VALUES (#{orderId}, #{customerId}, #{status}, #{version}, "
            + "#{createdAtMs}, #{statusSinceMs}, #{expireAtMs}, #{redisReady})")
    int insertIgnore(OrderRow row);

    @Select("SELECT " + COLUMNS + " FROM orders WHERE order_id = #{id}")
    OrderRow findById(@Param("id") String id);

    @Select("<script>SELECT " + COLUMNS + " FROM orders WHERE order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></script>")
    List<OrderRow> findByIds(@Param("ids") List<String> ids);

    /**
     * Status, version and the payment deadline only (the follower's sequence check reads them for a whole batch in one
     * statement; the deadline is what a sweeper's cancel is checked against).
     */
    @Select("<script>SELECT order_id, status, version, expire_at_ms, created_at_ms FROM orders WHERE order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></script>")
    List<OrderRow> headsByIds(@Param("ids") List<String> ids);

    /**
     * Version guard: writes the new status only when MySQL holds an older version, so a replayed or
     * out-of-order event never overwrites newer state.
     *
     * @return 1 applied, 0 already at that version or newer (or no such row)
     */
    @Update("UPDATE orders SET status = #{status}, version = #{version}, status_since_ms = #{sinceMs} "
            + "WHERE order_id = #{id} AND version < #{version}")
    int applyIfNewer(@Param("id") String id, @Param("status") int status, @Param("version") long version,
                     @Param("sinceMs") long sinceMs);

    @Update("UPDATE orders SET expire_at_ms = #{at} WHERE order_id = #{id}")
    int setExpiry(@Param("id") String id, @Param("at") long expireAtMs);

    /** Marks many orders' Redis state as created (bulk import). @return rows updated */
    @Update("<script>UPDATE orders SET redis_ready = 1 WHERE order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></script>")
    int markRedisReadyAll(@Param("ids") List<String> ids);

    /**
     * Which of {@code ids} exist, share-locking them and the gaps where absent ones would go until the transaction
     * ends, so a concurrent create cannot slip in between this check and a bulk insert. LOCK IN SHARE MODE: both
     * servers take it, and MySQL 8.0.22+ asks only SELECT privilege for it (FOR UPDATE needs UPDATE).
     */
    @Select("<script>SELECT order_id FROM orders WHERE order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach> LOCK IN SHARE MODE</script>")
    List<String> existingIdsLocked(@Param("ids") List<String> ids);

    /** Which of {@code ids} exist, as the transaction's snapshot sees them; locks nothing. */
    @Select("<script>SELECT order_id FROM orders WHERE order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></script>")
    List<String> existingIds(@Param("ids") List<String> ids);


    /** Orders whose Redis state may not exist yet (creation interrupted), created before {@code beforeMs}. */
    @Select("SELECT " + COLUMNS + " FROM orders WHERE redis_ready = 0 AND created_at_ms < #{beforeMs} LIMIT #{limit}")
    List<OrderRow> redisPending(@Param("beforeMs") long beforeMs, @Param("limit") int limit);

    /**
     * Unpaid orders (status 1, WAIT_PAY) whose payment deadline passed before {@code beforeMs}, oldest first,
     * after the keyset position ({@code afterSinceMs}, {@code afterId}); served by idx_orders_status_since
     * (for WAIT_PAY, status_since is the creation time, which precedes the deadline).
     */
    @Select("SELECT " + COLUMNS + " FROM orders WHERE status = 1 AND status_since_ms < #{beforeMs} AND expire_at_ms < #{beforeMs}"
            + " AND (status_since_ms > #{afterSinceMs} OR (status_since_ms = #{afterSinceMs} AND order_id > #{afterId}))"
            + " ORDER BY status_since_ms, order_id LIMIT #{limit}")
    List<OrderRow> overdueUnpaid(@Param("beforeMs") long beforeMs, @Param("afterSinceMs") long afterSinceMs,
                                 @Param("afterId") String afterId, @Param("limit") int limit);

    @Select("SELECT status AS `key`, COUNT(*) AS n FROM orders GROUP BY status")
    List<CountRow> countByStatus();

    /** @return orders in {@code status} since before {@code beforeMs} */
    @Select("SELECT COUNT(*) FROM orders WHERE status = #{status} AND status_since_ms < #{beforeMs}")
    long countStuck(@Param("status") int status, @Param("beforeMs") long beforeMs);

    @Select("SELECT COUNT(*) FROM orders")
    long countAll();

    /** Filters a page of the order table has whatever its order: exact id, id prefix, creation time range. */
    String PAGE_FILTERS = "<if test='exactId != null'> AND order_id = #{exactId}</if>"
            + "<if test='idPrefix != null'> AND order_id LIKE CONCAT(#{idPrefix}, '%')</if>"
            + "<if test='createdFromMs != null'> AND created_at_ms &gt;= #{createdFromMs}</if>"
            + "<if test='createdToMs != null'> AND created_at_ms &lt; #{createdToMs}</if>";

    /**
     * One page of the console's order table; see {@link OrderPageQuery}. By age, it is one keyset read per status
     * over idx_orders_status_since (each stops after a page), merged: an index on the age alone would be one more
     * entry that every transition moves, and the follower applies every transition (docs/benchmarks-history.md, eighth pass).
     */
    @Select("<script>"
            + "<if test='!byAge'>SELECT " + COLUMNS + " FROM orders"
            + "<where>" + PAGE_FILTERS
            + "<if test='statuses != null and !statuses.isEmpty()'> AND status IN "
            + "<foreach item='s' collection='statuses' open='(' separator=',' close=')'>#{s}</foreach></if>"
            + "<if test='stuckBounds != null and !stuckBounds.isEmpty()'> AND ("
            + "<foreach item='b' collection='stuckBounds' separator=' OR '>(status = #{b.status} AND status_since_ms &lt; #{b.beforeMs})</foreach>)</if>"
            + "<if test='afterId != null'> AND order_id &gt; #{afterId}</if>"
            + "</where> ORDER BY order_id LIMIT #{limit}</if>"
            + "<if test='byAge'>SELECT " + COLUMNS + " FROM ("
            + "<foreach item='p' collection='ageParts' separator=' UNION ALL '>(SELECT " + COLUMNS + " FROM orders WHERE status = #{p.status}"
            + "<if test='p.beforeMs != null'> AND status_since_ms &lt; #{p.beforeMs}</if>" + PAGE_FILTERS
            + "<if test='afterId != null'> AND (status_since_ms &gt; #{afterSince} OR (status_since_ms = #{afterSince} AND order_id &gt; #{afterId}))</if>"
            + " ORDER BY status_since_ms, order_id LIMIT #{limit})</foreach>"
            + ") AS by_status ORDER BY status_since_ms, order_id LIMIT #{limit}</if>"
            + "</script>")
    List<OrderRow> page(OrderPageQuery q);
}
