import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { suppressions } from "../../db/schema";
import { offsetOf, pageQuery } from "../paging";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { normalizeDomain, normalizeEmail } from "../emails";
import { newId } from "../ids";

export const addSuppressionsBody = z
  .object({
    emails: z.array(z.string().max(1000)).max(10_000).optional(),
    domains: z.array(z.string().max(300)).max(10_000).optional(),
  })
  .refine((o) => (o.emails?.length ?? 0) + (o.domains?.length ?? 0) > 0, "send emails or domains");

export const listSuppressionsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  q: z.string().max(200).optional(),
  kind: z.enum(["email", "domain"]).optional(),
});

export const suppressionSchema = z.object({
  id: z.string(),
  kind: z.enum(["email", "domain"]),
  value: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});

function view(r: typeof suppressions.$inferSelect) {
  return { id: r.id, kind: r.kind, value: r.value, reason: r.reason, createdAt: r.createdAt.toISOString() };
}

export async function listSuppressions(ctx: Ctx, q: z.infer<typeof listSuppressionsQuery>) {
  requireAccess(ctx, "read");
  const conds = [eq(suppressions.workspaceId, ctx.workspaceId)];
  if (q.kind) conds.push(eq(suppressions.kind, q.kind));
  if (q.q) conds.push(sql`${suppressions.value} ilike ${"%" + q.q.toLowerCase().replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(suppressions)
      .where(where)
      .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(suppressions).where(where),
  ]);
  return { rows: rows.map(view), total: n };
}

/**
 * Adds addresses and domains. Already-listed ones are counted as `existing`; malformed ones are
 * listed in `invalid` and the rest are still added.
 */
export async function addSuppressions(ctx: Ctx, input: z.infer<typeof addSuppressionsBody>, reason = "manual") {
  requireAccess(ctx, "write");
  const invalid: { value: string; reason: string }[] = [];
  const values: { kind: "email" | "domain"; value: string }[] = [];
  for (const e of input.emails ?? []) {
    const n = normalizeEmail(e);
    if (n.ok) values.push({ kind: "email", value: n.email.toLowerCase() });
    else invalid.push({ value: e, reason: n.reason });
  }
  for (const d of input.domains ?? []) {
    const n = normalizeDomain(d);
    if (n) values.push({ kind: "domain", value: n });
    else invalid.push({ value: d, reason: `"${d}" is not a valid domain` });
  }
  const unique = [...new Map(values.map((v) => [`${v.kind}:${v.value}`, v])).values()];
  const inserted = unique.length
    ? await ctx.db
        .insert(suppressions)
        .values(
          unique.map((v) => ({
            id: newId("sup"),
            workspaceId: ctx.workspaceId,
            kind: v.kind,
            value: v.value,
            reason,
            createdAt: ctx.clock.now(),
          })),
        )
        .onConflictDoNothing()
        .returning()
    : [];
  return { added: inserted.length, existing: unique.length - inserted.length, invalid, suppressions: inserted.map(view) };
}

export async function deleteSuppression(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const rows = await ctx.db
    .delete(suppressions)
    .where(and(eq(suppressions.id, id), eq(suppressions.workspaceId, ctx.workspaceId)))
    .returning({ id: suppressions.id });
  if (rows.length === 0) throw new NotFoundError("Suppression");
  return { deleted: true, id };
}
