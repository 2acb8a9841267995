import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/agents";
import { deleteDocument } from "@/lib/agents/documents";

export const DELETE = api(r.deleteDocument, async ({ ctx, params }) => deleteDocument(ctx, params.id, params.docId));
