import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1a2b3c");

/**
 * PUT /settings/branding: each field optional (only sent fields change); null clears one. What a
 * white-label report shows: the company's name and logo, a primary colour (headings, the header band),
 * an accent colour (figures and highlights) and a footer line (contact, legal text).
 */
export const brandingBody = z
  .object({
    name: z.string().trim().min(1).max(100).nullable().optional(),
    logoUrl: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2048)
      .nullable()
      .optional(),
    primaryColor: hexColour.nullable().optional(),
    accentColor: hexColour.nullable().optional(),
    footerText: z.string().trim().max(500, "must be at most 500 characters").nullable().optional(),
  })
  .strict();
export type BrandingInput = z.infer<typeof brandingBody>;

export interface Branding {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  accentColor: string | null;
  footerText: string | null;
}

type Stored = { [K in keyof Branding]?: Branding[K] | null };

/** The workspace's report branding, stored under settings.branding; the name defaults to the workspace's. */
export async function getBranding(ctx: Ctx): Promise<Branding> {
  requireAccess(ctx, "read");
  const [w] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, ctx.workspaceId));
  if (!w) throw new NotFoundError("Workspace");
  const b = (w.settings.branding ?? {}) as Stored;
  return {
    name: b.name ?? w.name,
    logoUrl: b.logoUrl ?? null,
    primaryColor: b.primaryColor ?? null,
    accentColor: b.accentColor ?? null,
    // An empty footer is no footer.
    footerText: b.footerText || null,
  };
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
