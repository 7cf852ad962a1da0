package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.util.List;

/** MyBatis mapper for {@code dead_letter}. */
public interface DeadLetterMapper {
    String COLUMNS = "id, kind, order_id, bucket, entry_id, reason, body, created_at_ms, state, resolved_by, resolved_at_ms, resolution";

    @Insert("INSERT IGNORE INTO dead_letter (kind, order_id, bucket, entry_id, reason, body, created_at_ms, open_key) "
            + "VALUES (#{kind}, #{orderId}, #{bucket}, #{entryId}, #{reason}, #{body}, #{createdAtMs}, #{openKey})")
    int insertIgnore(DeadLetterRow row);

    @Select("SELECT " + COLUMNS + " FROM dead_letter WHERE state = 'OPEN' ORDER BY id LIMIT #{limit}")
    List<DeadLetterRow> open(@Param("limit") int limit);

    @Select("SELECT COUNT(*) FROM dead_letter WHERE state = 'OPEN'")
    long countOpen();

    @Select("SELECT " + COLUMNS + " FROM dead_letter WHERE id = #{id}")
    DeadLetterRow find(@Param("id") long id);

    @Select("SELECT " + COLUMNS + " FROM dead_letter WHERE open_key = #{key}")
    DeadLetterRow findOpen(@Param("key") String openKey);

    /** Closes an open letter; its open key is released so that the same record can be set aside again later. */
    @Update("UPDATE dead_letter SET state = #{state}, resolved_by = #{by}, resolved_at_ms = #{at}, resolution = #{text}, "
            + "open_key = NULL WHERE id = #{id} AND state = 'OPEN'")
    int resolve(@Param("id") long id, @Param("state") String state, @Param("by") String by, @Param("at") long atMs,
                @Param("text") String resolution);
}
