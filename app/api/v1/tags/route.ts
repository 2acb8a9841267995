import { api } from "@/lib/api/handler";
import { tagRoutes } from "@/lib/api/contracts/workspace";
import { createTag, listTags } from "@/lib/tags/tags";

export const GET = api(tagRoutes.list, async ({ ctx }) => ({ tags: await listTags(ctx) }));
export const POST = api(tagRoutes.create, async ({ ctx, body }) => Response.json(await createTag(ctx, body), { status: 201 }));
