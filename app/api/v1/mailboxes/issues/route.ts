import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { mailboxIssues } from "@/lib/mailboxes/issues";

export const GET = api(mailboxRoutes.issues, async ({ ctx }) => mailboxIssues(ctx));
