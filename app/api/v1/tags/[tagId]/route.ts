import { api } from "@/lib/api/handler";
import { tagRoutes } from "@/lib/api/contracts/workspace";
import { deleteTag } from "@/lib/tags/tags";

export const DELETE = api(tagRoutes.delete, async ({ ctx, params }) => deleteTag(ctx, params.tagId));
