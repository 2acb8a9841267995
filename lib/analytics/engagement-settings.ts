import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { type Ctx, requireAccess, requireRole, withTransaction } from "../ctx";
import { NotFoundError } from "../errors";

/**
 * How the workspace counts opens and clicks. By default only people's hits count (privacy prefetches
 * and security scanners are shown beside, as machineOpenedCount / machineClickedCount);
 * `countMachineEngagement: true` counts every hit, as trackers did before hits were classified. It
 * applies to hits settled from then on: what was already counted stays as it was.
 */
export const engagementSettingsSchema = z.object({
  countMachineEngagement: z.boolean().describe("Count every tracking hit, machines' too (default false: people only)"),
});
export type EngagementSettings = z.infer<typeof engagementSettingsSchema>;

export async function getEngagementSettings(ctx: Ctx): Promise<EngagementSettings> {
  requireAccess(ctx, "read");
  const [w] = await ctx.db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId));
  if (!w) throw new NotFoundError("Workspace");
  return { countMachineEngagement: w.settings.countMachineEngagement === true };
}

/** Owner or admin: it changes every number the workspace's reports show. One jsonb merge, so other settings stay. */
export async function putEngagementSettings(ctx: Ctx, input: EngagementSettings): Promise<EngagementSettings> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  return withTransaction(ctx, async (tx, txCtx) => {
    await tx
      .update(workspaces)
      .set({
        settings: sql`${workspaces.settings} || jsonb_build_object('countMachineEngagement', ${input.countMachineEngagement}::boolean)`,
      })
      .where(eq(workspaces.id, ctx.workspaceId));
    await audit(
      txCtx,
      "settings.changed",
      { type: "settings", label: "Engagement counting" },
      { settings: "engagement", countMachineEngagement: input.countMachineEngagement },
    );
    return getEngagementSettings(txCtx);
  });
}
