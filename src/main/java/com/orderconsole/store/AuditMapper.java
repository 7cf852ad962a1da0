package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

import java.util.List;

/** MyBatis mapper for the append-only {@code audit_log}: inserts only. */
public interface AuditMapper {
    @Insert("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
            + "VALUES (#{atMs}, #{actor}, #{source}, #{action}, #{orderId}, #{reason}, #{detail})")
    int insert(AuditRow row);

    /** The override records of these orders (action OVERRIDE): order id, detail, the actor named and the writer stamped. */
    @Select("<script>SELECT order_id, detail, actor, written_by FROM audit_log WHERE action = 'OVERRIDE' AND order_id IN "
            + "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></script>")
    List<AuditRow> overrides(@Param("ids") List<String> ids);

    /**
     * The deliberate queue actions of these orders (QUEUE_REMOVE, QUEUE_EXTEND), oldest first per order: the last one says
     * whether an operator took the order out of the cancel queue on purpose. Through idx_audit_order (order_id, id).
     */
    @Select("<script>SELECT id, at_ms, actor, source, action, order_id, reason, detail, written_by FROM audit_log "
            + "WHERE order_id IN <foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach> "
            + "AND action IN ('QUEUE_REMOVE', 'QUEUE_EXTEND') ORDER BY order_id, id</script>")
    List<AuditRow> queueActions(@Param("ids") List<String> ids);
}
