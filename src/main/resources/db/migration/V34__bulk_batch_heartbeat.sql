-- A RUNNING bulk batch's heartbeat: epoch ms by the MySQL server's clock (UNIX_TIMESTAMP(), whole seconds), renewed
-- every few seconds by the process running it. A RUNNING batch whose heartbeat is older than the lease
-- (BulkService.DEFAULT_LEASE) is reported ABANDONED: its process died. Batches recorded before this column have 0,
-- so one still RUNNING from an earlier release reads as abandoned, which it is: no process of that release beats.
ALTER TABLE bulk_batch ADD COLUMN heartbeat_ms BIGINT NOT NULL DEFAULT 0;
