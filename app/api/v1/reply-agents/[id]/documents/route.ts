import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { listDocuments, uploadDocument } from "@/lib/reply-agents/documents";

export const GET = api(r.documents, async ({ ctx, params }) => listDocuments(ctx, params.id));
export const POST = api(r.upload, async ({ ctx, params, body }) => uploadDocument(ctx, params.id, body));
