import { and, eq, sql } from "drizzle-orm";
import { valuesOf } from "../../db/bulk";
import { leads } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { normalizeEmail } from "../emails";
import { suppressedAmong } from "../suppressions/check";
import { isValidTimezone } from "../timezones";
import { mergeLead, type LeadPatch, type LeadState } from "./merge";
import { getLeadViews } from "./read-leads";
import type { LeadView, PatchLeadInput } from "./schemas";
import { findLeadsByEmails, findLeadsByIds, lockWorkspaceLeads, updateLeadRows } from "./store";

/** On PATCH an unknown timezone is a 400, naming the field. */
function checkTimezone(tz: string | null | undefined, field: string): void {
  if (tz?.trim() && !isValidTimezone(tz.trim())) {
    throw ValidationError.field(field, `Unknown timezone "${tz}"; use an IANA name such as Europe/Berlin (see GET /timezones)`);
  }
}

/** PATCH /leads/<id>: changes only the sent fields; `email` may be changed to an unused address. */
export async function patchLead(ctx: Ctx, id: string, input: PatchLeadInput): Promise<LeadView> {
  requireAccess(ctx, "write");
  checkTimezone(input.timezone, "timezone");
  let newEmail: string | undefined;
  if (input.email !== undefined) {
    const n = normalizeEmail(input.email);
    if (!n.ok) throw ValidationError.field("email", n.reason);
    newEmail = n.email;
  }
  return withTransaction(ctx, async (tx) => {
    await lockWorkspaceLeads(tx, ctx.workspaceId);
    const found = (await findLeadsByIds(tx, ctx.workspaceId, [id])).get(id);
    if (!found) throw new NotFoundError("Lead");
    const { email: _e, ...patch } = input;
    const { next, changed } = mergeLead(found.state, patch);
    let emailChanged = false;
    if (newEmail && newEmail !== found.state.email) {
      if (newEmail.toLowerCase() !== found.state.email.toLowerCase()) {
        const clash = await findLeadsByEmails(tx, ctx.workspaceId, [newEmail]);
        if (clash.size > 0) throw new ConflictError(`Another lead already has the address ${newEmail}`);
      }
      next.email = newEmail;
      emailChanged = true;
    }
    if (changed || emailChanged) await updateLeadRows(tx, ctx.workspaceId, [{ id, state: next }], ctx.clock.now());
    return (await getLeadViews(tx, ctx.workspaceId, [id]))[0];
  });
}

export interface BulkPatchItem extends LeadPatch {
  id?: string;
  email?: string;
}

export interface BulkPatchResult {
  updated: number;
  unchanged: number;
  notFound: number;
  suppressed: number;
  results: { index: number; id: string | null; email: string | null; status: "updated" | "unchanged" | "not_found" | "suppressed" }[];
  suppressedEmails: string[];
}

/**
 * PATCH /leads/bulk: up to 1,000 leads, each found by id or email, merged by the same rules as
 * POST /leads. A lead whose address is suppressed is skipped.
 */
export async function bulkPatchLeads(ctx: Ctx, items: BulkPatchItem[]): Promise<BulkPatchResult> {
  requireAccess(ctx, "write");
  for (const [i, it] of items.entries()) checkTimezone(it.timezone, `leads.${i}.timezone`);
  return withTransaction(ctx, async (tx) => {
    await lockWorkspaceLeads(tx, ctx.workspaceId);
    const byId = await findLeadsByIds(
      tx,
      ctx.workspaceId,
      items.flatMap((i) => (i.id ? [i.id] : [])),
    );
    const emails = items.flatMap((i) => {
      if (i.id || !i.email) return [];
      const n = normalizeEmail(i.email);
      return n.ok ? [n.email] : [];
    });
    const byEmail = await findLeadsByEmails(tx, ctx.workspaceId, emails);
    const suppressed = await suppressedAmong(
      tx,
      ctx.workspaceId,
      [...byId.values(), ...byEmail.values()].map((l) => l.state.email),
    );

    const out: BulkPatchResult = { updated: 0, unchanged: 0, notFound: 0, suppressed: 0, results: [], suppressedEmails: [] };
    const touched = new Map<string, { state: LeadState; changed: boolean }>();
    items.forEach((item, index) => {
      const { id, email, ...patch } = item;
      let found = id ? byId.get(id) : undefined;
      if (!id && email) {
        const n = normalizeEmail(email);
        found = n.ok ? byEmail.get(n.email.toLowerCase()) : undefined;
      }
      if (!found) {
        out.results.push({ index, id: id ?? null, email: email ?? null, status: "not_found" });
        return;
      }
      if (suppressed.has(found.state.email.toLowerCase())) {
        out.results.push({ index, id: found.id, email: found.state.email, status: "suppressed" });
        if (!out.suppressedEmails.includes(found.state.email)) out.suppressedEmails.push(found.state.email);
        return;
      }
      const entry = touched.get(found.id) ?? { state: found.state, changed: false };
      const { next, changed } = mergeLead(entry.state, patch);
      touched.set(found.id, { state: next, changed: entry.changed || changed });
      out.results.push({ index, id: found.id, email: found.state.email, status: changed ? "updated" : "unchanged" });
    });
    const changedRows = [...touched.entries()].filter(([, e]) => e.changed).map(([id, e]) => ({ id, state: e.state }));
    await updateLeadRows(tx, ctx.workspaceId, changedRows, ctx.clock.now());
    for (const r of out.results) {
      if (r.status === "updated") out.updated++;
      else if (r.status === "unchanged") out.unchanged++;
      else if (r.status === "not_found") out.notFound++;
      else out.suppressed++;
    }
    return out;
  });
}

/**
 * POST /leads/bulk-delete (owner or admin). A lead that was emailed or replied can be deleted; its
 * replies go with it, the emails sent to it are kept (the sending tables keep their own copy of the
 * address).
 */
export async function bulkDeleteLeads(ctx: Ctx, leadIds: string[]): Promise<{ deleted: number; notFound: number }> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const unique = [...new Set(leadIds)];
  return withTransaction(ctx, async (tx, txCtx) => {
    const rows = await tx
      .delete(leads)
      .where(and(eq(leads.workspaceId, ctx.workspaceId), sql`${leads.id} in ${valuesOf(unique)}`))
      .returning({ id: leads.id });
    const deleted = rows.length;
    if (deleted > 0)
      await audit(
        txCtx,
        "leads.bulk_deleted",
        { type: "leads", label: `${deleted} lead(s)` },
        { count: deleted, requested: unique.length },
      );
    return { deleted, notFound: unique.length - deleted };
  });
}
