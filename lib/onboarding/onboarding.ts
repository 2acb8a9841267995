import { eq, sql } from "drizzle-orm";
import { workspaces } from "../../db/schema";
import { type Ctx, requireAccess } from "../ctx";
import { NotFoundError } from "../errors";
import { checklistItems, type OnboardingItem } from "./items";
import { workspaceFacts } from "./workspace-facts";

export interface Onboarding {
  items: OnboardingItem[];
  /** Someone in the workspace hid the checklist (it can be brought back). */
  dismissed: boolean;
  /** Every item is done: the dashboard stops showing the checklist by itself. */
  complete: boolean;
}

/** Where the dismissal lives in the workspace's settings: `{ dismissedAt, dismissedBy }`. */
const KEY = "onboarding";

interface Dismissal {
  dismissedAt?: string;
  dismissedBy?: string | null;
}

function dismissalOf(settings: Record<string, unknown>): Dismissal {
  const v = settings[KEY];
  return v && typeof v === "object" ? (v as Dismissal) : {};
}

/** The checklist of the current workspace, read from what the workspace holds right now. */
export async function getOnboarding(ctx: Ctx): Promise<Onboarding> {
  requireAccess(ctx, "read");
  const [[w], facts] = await Promise.all([
    ctx.db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
    workspaceFacts(ctx.db, ctx.workspaceId),
  ]);
  if (!w) throw new NotFoundError("Workspace");
  const items = checklistItems(facts);
  return { items, dismissed: !!dismissalOf(w.settings).dismissedAt, complete: items.every((i) => i.done) };
}

/**
 * Hides (or brings back) the checklist for the whole workspace: it describes the workspace's set-up,
 * which its members share. One statement merges the key into the settings, so a concurrent change of
 * another setting is never lost. Dismissing again keeps the first dismissal's time and author.
 */
export async function setOnboardingDismissed(ctx: Ctx, dismissed: boolean): Promise<Onboarding> {
  requireAccess(ctx, "write");
  const by = ctx.actor.type === "system" ? null : ctx.actor.userId;
  const value: Dismissal = dismissed ? { dismissedAt: ctx.clock.now().toISOString(), dismissedBy: by } : {};
  const [row] = await ctx.db
    .update(workspaces)
    .set({
      settings: sql`${workspaces.settings} || jsonb_build_object(${KEY}::text, case
        when ${dismissed}::boolean and ${workspaces.settings} -> ${KEY}::text ->> 'dismissedAt' is not null
        then ${workspaces.settings} -> ${KEY}::text else ${JSON.stringify(value)}::jsonb end)`,
    })
    .where(eq(workspaces.id, ctx.workspaceId))
    .returning({ id: workspaces.id });
  if (!row) throw new NotFoundError("Workspace");
  return getOnboarding(ctx);
}
