import { idSource } from "../ids";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { normalizeEmail } from "../emails";
import { suppressedAmong } from "../suppressions/check";
import { isValidTimezone } from "../timezones";
import { emptyLead, mergeInto, type LeadPatch, type LeadState } from "./merge";
import type { CreateLeadsResult, LeadInput } from "./schemas";
import { findLeadsByEmails, insertLeadRows, lockWorkspaceLeads, updateLeadRows } from "./store";

type Valid = { index: number; email: string; patch: LeadPatch };
type Touched = { id: string; state: LeadState; isNew: boolean; changed: boolean };
type StoredLeads = Awaited<ReturnType<typeof findLeadsByEmails>>;

/**
 * Step 1: normalise addresses and timezones; keep each valid item with its position. A malformed
 * address is reported for that lead; an unknown timezone is dropped from it with a warning.
 */
function normalizeItems(items: LeadInput[], result: CreateLeadsResult): Valid[] {
  const valid: Valid[] = [];
  items.forEach((item, index) => {
    const n = normalizeEmail(item.email);
    if (!n.ok) {
      result.invalidEmails.push({ index, email: String(item.email ?? ""), reason: n.reason });
      return;
    }
    // The item is the patch as it is (the merge reads only lead fields, so `email` in it is ignored);
    // it is copied only to drop an unknown timezone, which leaves the caller's parsed body untouched.
    let patch: LeadPatch = item;
    if (item.timezone && !isValidTimezone(item.timezone.trim())) {
      result.warnings.push({
        index,
        email: n.email,
        field: "timezone",
        message: `Unknown timezone "${item.timezone}" was skipped; use an IANA name such as Europe/Berlin`,
      });
      const { timezone: _t, ...rest } = item;
      patch = rest;
    }
    valid.push({ index, email: n.email, patch });
  });
  result.invalid = result.invalidEmails.length;
  return valid;
}

/**
 * Step 2: merge in order; an address repeated in the batch merges into the same lead. The states are
 * this call's own (new ones, or read for it), so they are merged in place.
 */
function mergeBatch(valid: Valid[], suppressed: Set<string>, existing: StoredLeads, result: CreateLeadsResult): Touched[] {
  const touched = new Map<string, Touched>();
  const suppressedSeen = new Set<string>();
  const newLeadId = idSource("lead", valid.length - existing.size);
  for (const v of valid) {
    const key = v.email.toLowerCase();
    if (suppressed.has(key)) {
      if (!suppressedSeen.has(key)) {
        suppressedSeen.add(key);
        result.suppressedEmails.push(v.email);
      }
      continue;
    }
    let entry = touched.get(key);
    if (!entry) {
      const found = existing.get(key);
      entry = found
        ? { id: found.id, state: found.state, isNew: false, changed: false }
        : { id: newLeadId(), state: emptyLead(v.email), isNew: true, changed: true };
      touched.set(key, entry);
    }
    if (mergeInto(entry.state, v.patch)) entry.changed = true;
    result.leads.push({ email: entry.state.email, id: entry.id, status: entry.isNew ? "created" : "updated" });
    result.leadIds.push(entry.id);
  }
  result.suppressed = result.suppressedEmails.length;
  return [...touched.values()];
}

/**
 * POST /leads: creates or merges up to 1,000 leads by email.
 * A malformed address or a suppressed one is reported for that lead; the rest of the batch is saved.
 * An unknown timezone is dropped from that lead with a warning, and the lead is still saved.
 */
export async function createLeads(ctx: Ctx, items: LeadInput[]): Promise<CreateLeadsResult> {
  requireAccess(ctx, "write");
  const result: CreateLeadsResult = {
    created: 0,
    updated: 0,
    suppressed: 0,
    invalid: 0,
    leads: [],
    leadIds: [],
    suppressedEmails: [],
    invalidEmails: [],
    warnings: [],
  };
  const valid = normalizeItems(items, result);

  return withTransaction(ctx, async (tx) => {
    // One round trip for the three: statements of a transaction run in the order they were sent, so
    // the workspace lock is held before the leads are read. Suppressed addresses are looked up too
    // (and skipped in the merge): cheaper than waiting for the suppression answer first.
    const emails = valid.map((v) => v.email);
    const [, suppressed, existing] = await Promise.all([
      lockWorkspaceLeads(tx, ctx.workspaceId),
      suppressedAmong(tx, ctx.workspaceId, emails),
      findLeadsByEmails(tx, ctx.workspaceId, emails),
    ]);
    const all = mergeBatch(valid, suppressed, existing, result);

    // 3. Two statements whatever the batch size, sent together: one insert, one update (other rows).
    const now = ctx.clock.now();
    const created = all.filter((e) => e.isNew);
    await Promise.all([
      insertLeadRows(tx, ctx.workspaceId, created, now),
      updateLeadRows(
        tx,
        ctx.workspaceId,
        all.filter((e) => !e.isNew && e.changed),
        now,
      ),
    ]);
    result.created = created.length;
    result.updated = all.length - result.created;
    return result;
  });
}
