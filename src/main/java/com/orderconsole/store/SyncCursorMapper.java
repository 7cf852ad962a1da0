package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** MyBatis mapper for {@code sync_cursor}: how far each bucket's outbox has been applied. */
public interface SyncCursorMapper {
    /** Locks and returns a bucket's cursor (null when none yet); serialises followers on one bucket. */
    @Select("SELECT last_id, epoch FROM sync_cursor WHERE bucket = #{b} FOR UPDATE")
    CursorRow lockCursor(@Param("b") int bucket);

    /** Reads without locking. */
    @Select("SELECT last_id, epoch FROM sync_cursor WHERE bucket = #{b}")
    CursorRow cursor(@Param("b") int bucket);

    @Insert("INSERT INTO sync_cursor (bucket, last_id, epoch, updated_at_ms) VALUES (#{b}, #{id}, #{epoch}, #{now}) "
            + "ON DUPLICATE KEY UPDATE last_id = VALUES(last_id), epoch = VALUES(epoch), updated_at_ms = VALUES(updated_at_ms)")
    int save(@Param("b") int bucket, @Param("id") String lastId, @Param("epoch") String epoch, @Param("now") long nowMs);

    /** Creates the row if absent so that {@link #lockCursor} has something to lock. */
    @Insert("INSERT IGNORE INTO sync_cursor (bucket, last_id, updated_at_ms) VALUES (#{b}, '0-0', 0)")
    int ensure(@Param("b") int bucket);
}
