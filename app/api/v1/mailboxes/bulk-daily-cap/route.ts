import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { bulkDailyCap } from "@/lib/mailboxes/manage";

export const PATCH = api(mailboxRoutes.bulkDailyCap, async ({ ctx, body }) => bulkDailyCap(ctx, body.mailboxIds, body.dailySendCap));
