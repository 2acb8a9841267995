import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";

/** PUT /settings/branding: each field optional (only sent fields change); null clears one. */
export const brandingBody = z
  .object({
    name: z.string().trim().min(1).max(100).nullable().optional(),
    logoUrl: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2048)
      .nullable()
      .optional(),
    primaryColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1a2b3c")
      .nullable()
      .optional(),
  })
  .strict();
export type BrandingInput = z.infer<typeof brandingBody>;

export interface Branding {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
}

type Stored = { name?: string | null; logoUrl?: string | null; primaryColor?: string | null };

/** The workspace's report branding (decisions "Reports"): stored under settings.branding; the name defaults to the workspace's. */
export async function getBranding(ctx: Ctx): Promise<Branding> {
  requireAccess(ctx, "read");
  const [w] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, ctx.workspaceId));
  if (!w) throw new NotFoundError("Workspace");
  const b = (w.settings.branding ?? {}) as Stored;
  return { name: b.name ?? w.name, logoUrl: b.logoUrl ?? null, primaryColor: b.primaryColor ?? null };
}

/**
 * Merges the sent fields into settings.branding in one statement (jsonb concatenation), so another
 * setting written at the same time is kept. Owner or admin: it changes what clients see.
 */
export async function putBranding(ctx: Ctx, input: BrandingInput): Promise<{ branding: Branding }> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const sent = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const patch = JSON.stringify(sent);
  return withTransaction(ctx, async (tx, txCtx) => {
    await tx
      .update(workspaces)
      .set({
        settings: sql`jsonb_set(${workspaces.settings}, '{branding}', coalesce(${workspaces.settings} -> 'branding', '{}'::jsonb) || ${patch}::jsonb)`,
      })
      .where(eq(workspaces.id, ctx.workspaceId));
    await audit(
      txCtx,
      "settings.changed",
      { type: "settings", label: "Report branding" },
      { settings: "branding", fields: Object.keys(sent) },
    );
    return { branding: await getBranding(txCtx) };
  });
}
