import { api } from "@/lib/api/handler";
import { tagRoutes } from "@/lib/api/contracts/workspace";
import { listTagsWithCounts } from "@/lib/tags/manage";
import { createTag } from "@/lib/tags/tags";

export const GET = api(tagRoutes.list, async ({ ctx }) => ({ tags: await listTagsWithCounts(ctx) }));
export const POST = api(tagRoutes.create, async ({ ctx, body }) => Response.json(await createTag(ctx, body), { status: 201 }));
