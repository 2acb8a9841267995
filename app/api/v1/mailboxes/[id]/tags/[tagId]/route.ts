import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { detachTagFromMailbox } from "@/lib/mailboxes/manage";

export const DELETE = api(mailboxRoutes.detachTag, async ({ ctx, params }) => detachTagFromMailbox(ctx, params.id, params.tagId));
