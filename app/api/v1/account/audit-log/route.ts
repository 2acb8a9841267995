import { api } from "@/lib/api/handler";
import { auditRoutes } from "@/lib/api/contracts/audit";
import { listAuditLog } from "@/lib/audit/read";

export const GET = api(auditRoutes.list, async ({ ctx, query }) => listAuditLog(ctx, query));
