package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

import java.util.List;

/** MyBatis mapper for the append-only {@code audit_log}: inserts and selects only. */
public interface AuditMapper {
    @Insert("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
            + "VALUES (#{atMs}, #{actor}, #{source}, #{action}, #{orderId}, #{reason}, #{detail})")
    int insert(AuditRow row);

    @Select("SELECT id, at_ms, actor, source, action, order_id, reason, detail FROM audit_log WHERE order_id = #{id} ORDER BY id")
    List<AuditRow> byOrder(@Param("id") String orderId);

    @Select("SELECT id, at_ms, actor, source, action, order_id, reason, detail FROM audit_log ORDER BY id DESC LIMIT #{limit}")
    List<AuditRow> latest(@Param("limit") int limit);
}
