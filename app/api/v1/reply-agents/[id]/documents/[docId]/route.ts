import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { deleteDocument } from "@/lib/reply-agents/documents";

export const DELETE = api(r.deleteDocument, async ({ ctx, params }) => deleteDocument(ctx, params.id, params.docId));
