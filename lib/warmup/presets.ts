import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { type Ctx, requireAccess, withTransaction } from "../ctx";
import { type PresetClass, presetClassOf, SETTING_FIELDS, type WarmupSettings } from "../mailboxes/warmup-ramp";
import type { presetsResponse, WarmupSettingsInput } from "./schemas";

/**
 * Warmup presets: one per provider class, kept in the workspace's settings
 * under `warmupPresets`. A preset holds any of the five settings; start-warmup fills the fields a
 * request leaves out from the preset of the mailbox's class, then from the defaults.
 */

type Presets = z.infer<typeof presetsResponse>["presets"];
const CLASSES: PresetClass[] = ["GOOGLE", "MICROSOFT", "OTHER"];

async function loadPresets(db: DbOrTx, workspaceId: string): Promise<Presets> {
  const [w] = await db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, workspaceId));
  const saved = (w?.settings?.warmupPresets ?? {}) as Partial<Record<PresetClass, Partial<WarmupSettings> | null>>;
  return { GOOGLE: saved.GOOGLE ?? null, MICROSOFT: saved.MICROSOFT ?? null, OTHER: saved.OTHER ?? null };
}

/** The preset for a mailbox's provider class (its espClass), or null. */
export async function presetFor(db: DbOrTx, workspaceId: string, espClass: string): Promise<Partial<WarmupSettings> | null> {
  return (await loadPresets(db, workspaceId))[presetClassOf(espClass)];
}

export async function getPresets(ctx: Ctx): Promise<{ presets: Presets }> {
  requireAccess(ctx, "read");
  return { presets: await loadPresets(ctx.db, ctx.workspaceId) };
}

/** PUT /warmup/presets/<class>: replaces that class's preset; an empty body clears it. */
export async function putPreset(ctx: Ctx, cls: PresetClass, input: WarmupSettingsInput): Promise<{ presets: Presets }> {
  requireAccess(ctx, "write");
  const preset: Partial<WarmupSettings> = {};
  for (const f of SETTING_FIELDS) if (input[f] !== undefined) preset[f] = input[f];
  const value = Object.keys(preset).length ? preset : null;
  await withTransaction(ctx, async (tx, txCtx) => {
    await tx
      .update(workspaces)
      .set({
        settings: sql`jsonb_set(
        case when jsonb_typeof(${workspaces.settings}->'warmupPresets') = 'object' then ${workspaces.settings}
          else jsonb_set(${workspaces.settings}, '{warmupPresets}', '{}'::jsonb, true) end,
        ${`{warmupPresets,${cls}}`}::text[], ${JSON.stringify(value)}::jsonb, true)`,
      })
      .where(eq(workspaces.id, ctx.workspaceId));
    await audit(
      txCtx,
      "settings.changed",
      { type: "settings", label: `Warmup preset ${cls}` },
      {
        settings: "warmupPresets",
        class: cls,
        fields: Object.keys(preset),
        cleared: value === null,
      },
    );
  });
  return getPresets(ctx);
}

export function isPresetClass(s: string): s is PresetClass {
  return (CLASSES as string[]).includes(s);
}
