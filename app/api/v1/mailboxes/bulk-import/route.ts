import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { bulkImportMailboxes } from "@/lib/mailboxes/bulk-import";

export const POST = api(mailboxRoutes.bulkImport, async ({ ctx, body }) => bulkImportMailboxes(ctx, body.mailboxes, body.verify));
