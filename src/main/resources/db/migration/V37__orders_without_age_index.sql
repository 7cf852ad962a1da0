-- Every transition moves an order's entries in each index holding its status or its age, and the MySQL follower
-- applies every transition: per change, InnoDB delete-marks the old entry, inserts the new one and purges the old
-- one later (a sixth of MariaDB's CPU during a follower drain went to purge; BENCHMARKS.md, issue 15, eighth pass).
-- idx_orders_since (status_since_ms, order_id) served only the order table sorted by age across statuses; that page
-- now reads idx_orders_status_since once per status and merges (OrderMapper.page).
ALTER TABLE orders DROP KEY idx_orders_since;
