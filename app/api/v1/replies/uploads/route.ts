import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { uploadFile } from "@/lib/inbox/files";

export const POST = api(r.upload, async ({ ctx, req }) => Response.json(await uploadFile(ctx, req), { status: 201 }));
