-- Rate-limit counters are one-minute windows: losing them in a crash is harmless, so they skip the WAL.
-- This makes the per-request counter upsert much cheaper (see npm run bench:leads).
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
