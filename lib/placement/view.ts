import { and, asc, count, desc, eq } from "drizzle-orm";
import { mailboxes, placementResults, placementTests } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { envelope, offsetOf, type Paging } from "../paging";
import type { PlacementDetailView, PlacementTestView } from "./schemas";
import { completedData } from "./finish";

/** The columns a test is shown with: the test and its mailbox's address. */
const columns = { t: placementTests, email: mailboxes.email };
type Joined = { t: typeof placementTests.$inferSelect; email: string };

/** A test as the API shows it: the `placement.completed` fields with `id`, the deadline and a failure's reason. */
function serialize({ t, email }: Joined): PlacementTestView {
  return { id: t.id, ...completedData(t, email), deadlineAt: t.deadlineAt.toISOString(), error: t.error };
}

/** GET /placement-tests: `{ tests, page, limit, total }`, newest first; `mailboxId` narrows to one mailbox. */
export async function listPlacementTests(ctx: Ctx, q: Paging & { mailboxId?: string }) {
  requireAccess(ctx, "read");
  const where = and(eq(placementTests.workspaceId, ctx.workspaceId), q.mailboxId ? eq(placementTests.mailboxId, q.mailboxId) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(placementTests)
      .innerJoin(mailboxes, eq(mailboxes.id, placementTests.mailboxId))
      .where(where)
      .orderBy(desc(placementTests.seq))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ total: count() }).from(placementTests).where(where),
  ]);
  return envelope("tests", rows.map(serialize), total, q);
}

/** GET /placement-tests/<id>: the test and one result per seed (in address order). Another workspace's test is 404. */
export async function getPlacementTest(ctx: Ctx, id: string): Promise<PlacementDetailView> {
  requireAccess(ctx, "read");
  const [row] = await ctx.db
    .select(columns)
    .from(placementTests)
    .innerJoin(mailboxes, eq(mailboxes.id, placementTests.mailboxId))
    .where(and(eq(placementTests.id, id), eq(placementTests.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Placement test");
  const results = await ctx.db
    .select()
    .from(placementResults)
    .where(eq(placementResults.testId, id))
    .orderBy(asc(placementResults.seedEmail), asc(placementResults.id));
  return {
    ...serialize(row),
    results: results.map((r) => ({
      seedEmail: r.seedEmail,
      provider: r.provider,
      placement: r.placement,
      folder: r.folder,
      tab: r.tab,
      receivedAt: r.receivedAt?.toISOString() ?? null,
      sendError: r.sendError,
    })),
  };
}
