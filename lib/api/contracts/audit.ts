import { z } from "zod";
import { auditLogQuery } from "../../audit/read";
import { defineRoute } from "../route";

const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    type: z.enum(["user", "api_key", "system"]),
    id: z.string().nullable().describe("The user's or API key's id; null for the system"),
    label: z.string().nullable().describe("The user's email, or the key's name and prefix, when the action was recorded"),
  }),
  action: z.string().describe("A dotted name, e.g. mailbox.connected (docs/teams.md lists them)"),
  target: z
    .object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() })
    .nullable()
    .describe("What the action was done to, with a human name (a mailbox's address, a webhook's URL, a campaign's name)"),
  ip: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).describe("What changed (field names, counts, filters); never a secret"),
});

/** The audit log (owner or admin session). */
export const auditRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/account/audit-log",
    tag: "Account",
    access: "read",
    credential: "session",
    role: "admin",
    query: auditLogQuery,
    summary:
      "The workspace's audit log, newest first: who did what, to what, when and from where. " +
      "Also the sign-ins, two-factor and password changes of its members (owner or admin session)",
    response: {
      description: "`{ entries, page, limit, total }`",
      schema: z.object({ entries: z.array(auditEntrySchema), page: z.number(), limit: z.number(), total: z.number() }),
    },
  }),
};
