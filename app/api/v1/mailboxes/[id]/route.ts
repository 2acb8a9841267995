import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { deleteMailbox, getMailbox, patchMailbox } from "@/lib/mailboxes/manage";

export const GET = api(mailboxRoutes.get, async ({ ctx, params }) => getMailbox(ctx, params.id));
export const PATCH = api(mailboxRoutes.patch, async ({ ctx, params, body }) => patchMailbox(ctx, params.id, body));
export const DELETE = api(mailboxRoutes.delete, async ({ ctx, params }) => deleteMailbox(ctx, params.id));
