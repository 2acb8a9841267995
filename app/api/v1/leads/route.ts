import { api } from "@/lib/api/handler";
import { envelope } from "@/lib/paging";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { createLeadsAndVerify } from "@/lib/finder/verify-leads";
import { createLeads } from "@/lib/leads/create-leads";
import { listLeads } from "@/lib/leads/read-leads";

export const GET = api(leadRoutes.list, async ({ ctx, query }) => {
  const { rows, total } = await listLeads(ctx, query);
  return envelope("leads", rows, total, query);
});

// verify: true also queues the SMTP verification of the saved addresses (lib/finder/verify-leads.ts).
export const POST = api(leadRoutes.create, async ({ ctx, body }) =>
  body.verify ? createLeadsAndVerify(ctx, body.leads) : createLeads(ctx, body.leads),
);
