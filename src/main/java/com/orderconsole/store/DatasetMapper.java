package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** MyBatis mapper for {@code dataset_identity} (one row). */
public interface DatasetMapper {
    @Select("SELECT dataset_id FROM dataset_identity WHERE id = 1")
    String get();

    @Select("SELECT buckets FROM dataset_identity WHERE id = 1")
    Integer buckets();

    @Select("SELECT redis_marker FROM dataset_identity WHERE id = 1")
    String redisMarker();

    @org.apache.ibatis.annotations.Update("UPDATE dataset_identity SET redis_marker = #{marker} WHERE id = 1")
    int recordRedisMarker(@Param("marker") String marker);

    @Insert("INSERT IGNORE INTO dataset_identity (id, dataset_id, created_at_ms, buckets) VALUES (1, #{id}, #{at}, #{buckets})")
    int claim(@Param("id") String datasetId, @Param("at") long atMs, @Param("buckets") int buckets);
}
