-- The MySQL follower writes one history row per outbox entry; every secondary index is work on its
-- hot path. idx_history_order (order_id, id) is redundant: uk_history_applied_version starts with
-- order_id too (an order's history is found through it and sorted by id, a handful of rows).
ALTER TABLE order_history DROP KEY idx_history_order;
