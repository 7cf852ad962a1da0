-- The audit view (issue 13) pages every recorded action newest first, keyset (at_ms, id), filtered by
-- actor, source or result code. Each index below is (column, at_ms) and InnoDB appends the primary key id,
-- so a filtered page is one backward range scan that stops after the page, at any table size.
-- Unfiltered pages and time ranges use idx_history_at / idx_audit_at. The cost is three more index
-- entries per history row on the follower's path (BENCHMARKS.md, issue 13).
ALTER TABLE order_history
    ADD KEY idx_history_actor_at (actor, at_ms),
    ADD KEY idx_history_source_at (source, at_ms),
    ADD KEY idx_history_code_at (result_code, at_ms);
ALTER TABLE audit_log
    ADD KEY idx_audit_actor_at (actor, at_ms),
    ADD KEY idx_audit_source_at (source, at_ms);
