-- GET /leads?q= is a substring search (ilike '%…%') over a lead's address, names and company: trigrams
-- (pg_trgm, shipped with PostgreSQL) let a GIN index find the matches instead of a walk of the workspace.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "leads_search_trgm_idx" ON "leads" USING gin (("email" || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", '') || ' ' || coalesce("company_name", '')) gin_trgm_ops);