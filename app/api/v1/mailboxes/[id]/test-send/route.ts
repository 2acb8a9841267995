import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { testSendMailbox } from "@/lib/mailboxes/test-send";

export const POST = api(mailboxRoutes.testSend, async ({ ctx, params, body }) => testSendMailbox(ctx, params.id, body));
