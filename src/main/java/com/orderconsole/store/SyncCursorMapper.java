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

    /**
     * Inserts or replaces a bucket's cursor. The new values are given twice rather than read back with
     * {@code VALUES(col)}, which MySQL 8.0.20+ deprecates (warning 1287), or with MySQL's row alias
     * ({@code AS new ... new.col}), which MariaDB refuses: this phrasing runs unchanged on both.
     */
    @Insert("INSERT INTO sync_cursor (bucket, last_id, epoch, updated_at_ms) VALUES (#{b}, #{id}, #{epoch}, #{now}) "
            + "ON DUPLICATE KEY UPDATE last_id = #{id}, epoch = #{epoch}, updated_at_ms = #{now}")
    int save(@Param("b") int bucket, @Param("id") String lastId, @Param("epoch") String epoch, @Param("now") long nowMs);

    /** Creates the row if absent so that {@link #lockCursor} has something to lock. */
    @Insert("INSERT IGNORE INTO sync_cursor (bucket, last_id, updated_at_ms) VALUES (#{b}, '0-0', 0)")
    int ensure(@Param("b") int bucket);
}
