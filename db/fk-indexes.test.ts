import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";

/**
 * Deleting a parent row runs its foreign keys' cascade (or set null) once per deleted row; without an
 * index led by the key's column, each of those is a scan of the child table, so deleting a mailbox, a
 * lead or a subsequence costs as much as the table is large. Every foreign key has such an index but for
 * the ones listed here, each left without one on purpose. A new key without an index fails this test:
 * add the index, or add the key here with the reason.
 */
const UNINDEXED = new Set([
  // workspace_id keys: a workspace delete runs each cascade once per workspace row (one scan per table,
  // per workspace deleted), and these tables are read by keys that lead with something else.
  ...[
    "agent_chunks",
    "agent_documents",
    "agent_replies",
    "agent_website_scans",
    "blacklist_jobs",
    "campaign_leads",
    "campaign_mailboxes",
    "campaign_steps",
    "campaign_subsequences",
    "copy_fatigue_scans",
    "copy_fatigue_steps",
    "email_events",
    "finder_enrich_jobs",
    "lead_branches",
    "lead_events",
    "lead_tags",
    "mailbox_tags",
    "mailbox_warmups",
    "message_files",
    "oauth_flows",
    "sent_replies",
    "step_attachments",
    "warmup_messages",
  ].map((t) => `${t}.workspace_id`),
  // Small tables whose parents are deleted rarely: a workspace's few campaigns per tracking domain,
  // short-lived OAuth flows, a handful of tenants and invitations per user.
  "campaigns.tracking_domain_id",
  "oauth_flows.user_id",
  "microsoft_tenants.consented_by",
  "invitations.accepted_by",
  "invitations.invited_by",
]);

describe("foreign key indexes", () => {
  it("every foreign key has an index led by its column, but for the ones left without on purpose", async () => {
    const rows = await getDb().$client<{ key: string; indexed: boolean }[]>`
      select c.conrelid::regclass::text || '.' || a.attname as key,
        exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1]) as indexed
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
      order by 1`;
    expect(rows.length).toBeGreaterThan(50);
    const missing = rows.filter((r) => !r.indexed && !UNINDEXED.has(r.key)).map((r) => r.key);
    expect(missing, "foreign keys without an index led by their column").toEqual([]);
    // The list holds no key that has gone, or that has an index now.
    const stale = [...UNINDEXED].filter((k) => !rows.some((r) => r.key === k && !r.indexed));
    expect(stale, "listed as unindexed, but indexed or not a foreign key").toEqual([]);
  });
});
