-- Issue 16: the bucket count is chosen when a data set is initialised (16 on one server, 64 on a Redis
-- Cluster) and may never change afterwards: it decides which key, and so which cluster master, holds
-- every order. Every data set recorded before this migration was made with the fixed count of 16.
ALTER TABLE dataset_identity ADD COLUMN buckets INT NULL;
UPDATE dataset_identity SET buckets = 16 WHERE buckets IS NULL;
