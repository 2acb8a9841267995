import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { aiUsage, workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { RateLimitedError } from "../errors";
import { aiProviderFor } from "./resolve";

export const aiSettingsShape = {
  aiClassificationEnabled: z.boolean(),
  aiDraftEnabled: z.boolean(),
  /** Tag the lead of every classified reply with its intent (AUTO_TAG_NAMES), as the reply is stored. */
  autoTagOnReply: z.boolean(),
  customInstructions: z.string().max(4000),
  /** AI credits per month: a workspace setting, default 1000. */
  monthlyCredits: z.number().int().min(0).max(1_000_000),
};
export const patchAiSettingsBody = z
  .object(aiSettingsShape)
  .partial()
  .refine((o) => Object.keys(o).length > 0, "send at least one setting");
export type AiSettings = { [K in keyof typeof aiSettingsShape]: z.infer<(typeof aiSettingsShape)[K]> };

/**
 * The tag `autoTagOnReply` puts on the lead of a reply, per intent: the names the inbox shows. A tag
 * of that name (any case) is used when the workspace has one, else created. UNCLASSIFIED tags nothing;
 * tags are only added (a later reply of another intent adds its own, a tag taken off stays off until
 * a new reply of that intent arrives).
 */
export const AUTO_TAG_NAMES: Readonly<Record<string, string>> = {
  INTERESTED: "Interested",
  NOT_INTERESTED: "Not interested",
  OUT_OF_OFFICE: "Out of office",
  WRONG_PERSON: "Wrong person",
  UNSUBSCRIBE_REQUEST: "Unsubscribe request",
  QUESTION: "Question",
};

const DEFAULTS: AiSettings = {
  aiClassificationEnabled: true,
  aiDraftEnabled: true,
  autoTagOnReply: false,
  customInstructions: "",
  monthlyCredits: 1000,
};

export async function loadAiSettings(db: DbOrTx, workspaceId: string): Promise<AiSettings> {
  const [w] = await db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return { ...DEFAULTS, ...((w?.settings?.ai as Partial<AiSettings>) ?? {}) };
}

function month(now: Date): string {
  return now.toISOString().slice(0, 7);
}
function nextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

async function creditsView(db: DbOrTx, workspaceId: string, s: AiSettings, now: Date) {
  const [u] = await db
    .select({ used: aiUsage.used })
    .from(aiUsage)
    .where(and(eq(aiUsage.workspaceId, workspaceId), eq(aiUsage.month, month(now))));
  const used = u?.used ?? 0;
  return { limit: s.monthlyCredits, used, remaining: Math.max(0, s.monthlyCredits - used), resetsAt: nextMonth(now).toISOString() };
}

export async function getAiSettings(ctx: Ctx) {
  requireAccess(ctx, "read");
  const s = await loadAiSettings(ctx.db, ctx.workspaceId);
  const p = await aiProviderFor(ctx.db, ctx.workspaceId);
  return { ...s, provider: p.name, model: p.model, credits: await creditsView(ctx.db, ctx.workspaceId, s, ctx.clock.now()) };
}

/** PATCH /ai-settings (owner or admin, like the workspace's other settings: credits are a spending limit). */
export async function patchAiSettings(ctx: Ctx, input: z.infer<typeof patchAiSettingsBody>) {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const s = { ...(await loadAiSettings(ctx.db, ctx.workspaceId)), ...input };
  await withTransaction(ctx, async (tx, txCtx) => {
    await tx
      .update(workspaces)
      .set({ settings: sql`jsonb_set(${workspaces.settings}, '{ai}', ${JSON.stringify(s)}::jsonb, true)` })
      .where(eq(workspaces.id, ctx.workspaceId));
    const fields = Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined);
    await audit(txCtx, "settings.changed", { type: "settings", label: "AI settings" }, { settings: "ai", fields });
  });
  return getAiSettings(ctx);
}

/**
 * Takes one AI credit, atomically. Out of credits: 429 RATE_LIMITED with details.reason AI_CREDITS and
 * Retry-After = seconds until the monthly credits renew.
 */
export async function useCredit(db: DbOrTx, workspaceId: string, now: Date): Promise<{ remaining: number }> {
  const s = await loadAiSettings(db, workspaceId);
  const rows = await selectRows<{ used: number }>(
    db,
    sql`
      insert into ai_usage as u (workspace_id, month, used) select ${workspaceId}, ${month(now)}, 1 where ${s.monthlyCredits} >= 1
      on conflict (workspace_id, month) do update set used = u.used + 1 where u.used < ${s.monthlyCredits}
      returning used`,
  );
  if (rows.length === 0) {
    const retry = Math.ceil((nextMonth(now).getTime() - now.getTime()) / 1000);
    throw new RateLimitedError(
      `This workspace has used its ${s.monthlyCredits} AI credits for the month; they renew ${nextMonth(now).toISOString()}`,
      retry,
      { reason: "AI_CREDITS", limit: s.monthlyCredits },
    );
  }
  return { remaining: s.monthlyCredits - rows[0].used };
}
