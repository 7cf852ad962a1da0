package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.util.List;

/** MyBatis mapper for {@code api_client} (V45). On servers that check accounts only V45's procedures write it. */
public interface ApiClientMapper {
    @Select("SELECT name, role, token_sha256, added_at_ms, added_by, revoked_at_ms FROM api_client ORDER BY name")
    List<ApiClientRow> all();

    @Insert("INSERT INTO api_client (name, role, token_sha256, added_at_ms, added_by) "
            + "VALUES (#{name}, #{role}, #{tokenSha256}, #{addedAtMs}, #{addedBy})")
    int insert(ApiClientRow row);

    @Update("UPDATE api_client SET revoked_at_ms = #{atMs} WHERE name = #{name} AND revoked_at_ms IS NULL")
    int revoke(@Param("name") String name, @Param("atMs") long atMs);
}
