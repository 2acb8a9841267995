import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { attachTagToMailbox } from "@/lib/mailboxes/manage";

export const POST = api(mailboxRoutes.attachTag, async ({ ctx, params, body }) => attachTagToMailbox(ctx, params.id, body));
