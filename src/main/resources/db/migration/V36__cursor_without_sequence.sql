-- Issue 15.3: the outbox entries carry no sequence number any more. The follower finds a Redis that went back in
-- time by the entry it applied last, which the outbox always keeps (the trim deletes only entries before it), so
-- the cursor no longer needs the number that entry had.
ALTER TABLE sync_cursor DROP COLUMN seq;
