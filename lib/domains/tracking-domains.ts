import { and, asc, eq, isNotNull, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { trackingDomains } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { appUrl, trackingCnameTarget } from "../env";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { forgetTrackingHosts } from "./tracking-hosts";
import type { TrackingDomainView } from "./tracking-schemas";
import { checkTrackingDns } from "./tracking-verify";

/**
 * A workspace's own tracking domains (Settings → Tracking domains, docs/tracking.md): added PENDING,
 * VERIFIED once the DNS shows a CNAME to the target, FAILING when a check does not. Owners and admins
 * change them; every member reads them.
 */

export type TrackingDomainRow = typeof trackingDomains.$inferSelect;

export function trackingDomainView(r: TrackingDomainRow): TrackingDomainView {
  return {
    id: r.id,
    domain: r.domain,
    cnameTarget: r.cnameTarget,
    status: r.status,
    verifiedAt: r.verifiedAt?.toISOString() ?? null,
    isDefault: r.isDefault,
    lastCheckedAt: r.lastCheckedAt?.toISOString() ?? null,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
  };
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The host name a user typed, lower-cased without a trailing dot, or a 400 VALIDATION_ERROR on `domain` saying what is
 * wrong: a scheme, path or port; fewer than two labels; a label with other than letters, digits and
 * inner hyphens; an IP address; APP_URL's own host or the CNAME target.
 */
export function normalizeTrackingDomain(raw: string): string {
  const d = raw.trim().toLowerCase().replace(/\.$/, "");
  const bad = (why: string) => ValidationError.field("domain", `${why}; enter a host name such as track.example.com`);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(d)) throw bad("no scheme (http:// or https://)");
  if (/[/?#]/.test(d)) throw bad("no path, query or fragment");
  if (/:/.test(d)) throw bad("no port");
  if (d.length > 253) throw bad("at most 253 characters");
  const labels = d.split(".");
  if (labels.length < 2) throw bad("at least one dot");
  if (!labels.every((l) => LABEL.test(l))) throw bad("letters, digits and inner hyphens between the dots only");
  if (/^\d+$/.test(labels[labels.length - 1])) throw bad("not an IP address");
  if (d === new URL(appUrl()).hostname.toLowerCase()) throw bad("not this installation's own host (APP_URL), which tracks already");
  if (d === trackingCnameTarget()) throw bad("not the CNAME target itself");
  return d;
}

async function findOwn(db: DbOrTx, workspaceId: string, id: string, lock = false): Promise<TrackingDomainRow> {
  const q = db
    .select()
    .from(trackingDomains)
    .where(and(eq(trackingDomains.id, id), eq(trackingDomains.workspaceId, workspaceId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFoundError("Tracking domain");
  return row;
}

/** Whether another workspace holds `domain` (it verified it once and has not deleted it, even while FAILING). */
async function heldElsewhere(db: DbOrTx, workspaceId: string, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: trackingDomains.id })
    .from(trackingDomains)
    .where(and(eq(trackingDomains.domain, domain), ne(trackingDomains.workspaceId, workspaceId), isNotNull(trackingDomains.verifiedAt)))
    .limit(1);
  return !!row;
}

const HELD = (domain: string) =>
  new ConflictError(`${domain} is verified by another workspace of this installation; it can be added once that workspace deletes it`);

const isUnique = (e: unknown) => {
  const x = e as { code?: string; cause?: { code?: string } };
  return x.code === "23505" || x.cause?.code === "23505";
};

/** GET /settings/tracking-domains: the workspace's domains, oldest first. */
export async function listTrackingDomains(ctx: Ctx): Promise<{ domains: TrackingDomainView[] }> {
  requireAccess(ctx, "read");
  const rows = await ctx.db
    .select()
    .from(trackingDomains)
    .where(eq(trackingDomains.workspaceId, ctx.workspaceId))
    .orderBy(asc(trackingDomains.createdAt), asc(trackingDomains.id));
  return { domains: rows.map(trackingDomainView) };
}

/** POST /settings/tracking-domains (owner or admin): a PENDING domain with the CNAME target to point it at. */
export async function addTrackingDomain(ctx: Ctx, input: { domain: string }): Promise<TrackingDomainView> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const domain = normalizeTrackingDomain(input.domain);
  if (await heldElsewhere(ctx.db, ctx.workspaceId, domain)) throw HELD(domain);
  try {
    return await withTransaction(ctx, async (tx, txCtx) => {
      const [row] = await tx
        .insert(trackingDomains)
        .values({ id: newId("tdm"), workspaceId: ctx.workspaceId, domain, cnameTarget: trackingCnameTarget(), createdAt: ctx.clock.now() })
        .returning();
      await audit(
        txCtx,
        "settings.changed",
        { type: "tracking_domain", id: row.id, label: domain },
        { settings: "tracking-domains", added: domain },
      );
      return trackingDomainView(row);
    });
  } catch (e) {
    if (isUnique(e)) throw new ConflictError(`${domain} is already one of this workspace's tracking domains`);
    throw e;
  }
}

/**
 * Checks one domain's DNS now and stores the outcome: VERIFIED (verifiedAt set the first time), else
 * FAILING with what the DNS answered — except that a VERIFIED domain stays so when no look-up got an
 * answer (the error is noted in lastError), so a resolver's hiccup does not break its links. No audit entry: the caller writes it (the API) or none (the
 * periodic re-check). A domain another workspace holds is a 409 and keeps its state.
 */
export async function checkTrackingDomain(db: DbOrTx, row: TrackingDomainRow, now: Date): Promise<TrackingDomainRow> {
  if (await heldElsewhere(db, row.workspaceId, row.domain)) throw HELD(row.domain);
  const dns = await checkTrackingDns(row.domain, row.cnameTarget);
  // A DNS that did not answer at all (timeouts) leaves a VERIFIED domain in use, with the error noted.
  const keep = !dns.ok && dns.unanswered && row.status === "VERIFIED";
  const set = dns.ok
    ? { status: "VERIFIED" as const, verifiedAt: row.verifiedAt ?? now, lastCheckedAt: now, lastError: null }
    : { status: keep ? ("VERIFIED" as const) : ("FAILING" as const), lastCheckedAt: now, lastError: dns.error };
  try {
    const [next = row] = await db.update(trackingDomains).set(set).where(eq(trackingDomains.id, row.id)).returning();
    if (next.status !== row.status) forgetTrackingHosts();
    return next;
  } catch (e) {
    if (isUnique(e)) throw HELD(row.domain);
    throw e;
  }
}

/** POST /settings/tracking-domains/<id>/verify (owner or admin): checks the DNS now; the answer is the domain as stored. */
export async function verifyTrackingDomain(ctx: Ctx, id: string): Promise<TrackingDomainView> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const row = await findOwn(ctx.db, ctx.workspaceId, id);
  const next = await checkTrackingDomain(ctx.db, row, ctx.clock.now());
  await audit(
    ctx,
    "settings.changed",
    { type: "tracking_domain", id, label: row.domain },
    { settings: "tracking-domains", verified: row.domain, status: next.status, ...(next.lastError ? { dns: next.lastError } : {}) },
  );
  return trackingDomainView(next);
}

/** DELETE /settings/tracking-domains/<id> (owner or admin): campaigns that used it track through the default again. */
export async function deleteTrackingDomain(ctx: Ctx, id: string): Promise<{ deleted: true; id: string }> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  await withTransaction(ctx, async (tx, txCtx) => {
    const row = await findOwn(tx, ctx.workspaceId, id, true);
    // campaigns.tracking_domain_id is set to null by its foreign key.
    await tx.delete(trackingDomains).where(eq(trackingDomains.id, id));
    await audit(
      txCtx,
      "settings.changed",
      { type: "tracking_domain", id, label: row.domain },
      { settings: "tracking-domains", removed: row.domain },
    );
  });
  forgetTrackingHosts();
  return { deleted: true, id };
}

/** PATCH /settings/tracking-domains/<id> (owner or admin): `isDefault: true` for a VERIFIED domain only; the previous default is unset. */
export async function patchTrackingDomain(ctx: Ctx, id: string, input: { isDefault: boolean }): Promise<TrackingDomainView> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  return withTransaction(ctx, async (tx, txCtx) => {
    const row = await findOwn(tx, ctx.workspaceId, id, true);
    if (input.isDefault && row.status !== "VERIFIED")
      throw ValidationError.field(
        "isDefault",
        `only a VERIFIED domain can be the default; ${row.domain} is ${row.status} (verify it first)`,
      );
    if (row.isDefault === input.isDefault) return trackingDomainView(row);
    if (input.isDefault)
      await tx
        .update(trackingDomains)
        .set({ isDefault: false })
        .where(and(eq(trackingDomains.workspaceId, ctx.workspaceId), eq(trackingDomains.isDefault, true)));
    const [next] = await tx.update(trackingDomains).set({ isDefault: input.isDefault }).where(eq(trackingDomains.id, id)).returning();
    await audit(
      txCtx,
      "settings.changed",
      { type: "tracking_domain", id, label: row.domain },
      { settings: "tracking-domains", default: input.isDefault ? row.domain : null },
    );
    return trackingDomainView(next);
  });
}
