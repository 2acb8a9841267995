import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { trackingDomains } from "../../db/schema";
import { ValidationError } from "../errors";

/**
 * A campaign's `trackingDomainId` must name one of the workspace's tracking domains (any status: it is
 * used while VERIFIED; otherwise the campaign tracks through the workspace's default, else APP_URL).
 * null clears the choice. Anything else is a 400 VALIDATION_ERROR on the field, also for another workspace's domain.
 */
export async function checkTrackingDomainChoice(db: DbOrTx, workspaceId: string, id: string | null | undefined): Promise<void> {
  if (id == null) return;
  const [row] = await db
    .select({ id: trackingDomains.id })
    .from(trackingDomains)
    .where(and(eq(trackingDomains.id, id), eq(trackingDomains.workspaceId, workspaceId)));
  if (!row)
    throw ValidationError.field(
      "trackingDomainId",
      `no tracking domain ${id} in this workspace (GET /settings/tracking-domains lists them)`,
    );
}
