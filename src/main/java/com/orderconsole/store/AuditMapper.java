package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;

/** MyBatis mapper for the append-only {@code audit_log}: inserts only. */
public interface AuditMapper {
    @Insert("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
            + "VALUES (#{atMs}, #{actor}, #{source}, #{action}, #{orderId}, #{reason}, #{detail})")
    int insert(AuditRow row);
}
