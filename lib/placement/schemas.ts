import { z } from "zod";
import { pageQuery } from "../paging";

/** POST /placement-tests. */
export const createPlacementBody = z.object({
  mailboxId: z.string().min(1, "mailboxId is required").max(100),
  subject: z.string().trim().max(500).optional().describe("The probe's subject; an ordinary one when omitted"),
  body: z.string().max(100_000).optional().describe("The probe's plain-text body; an ordinary note when omitted"),
});
export type CreatePlacementInput = z.infer<typeof createPlacementBody>;

export const listPlacementQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  mailboxId: z.string().max(100).optional().describe("Only this mailbox's tests"),
});

const status = z.enum(["RUNNING", "COMPLETED", "FAILED", "NO_SEED_POOL"]);

export const placementStartedSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  status: status.describe("RUNNING, or NO_SEED_POOL at once when there are no seeds (FAILED when no probe could be sent)"),
  seedCount: z.number().int(),
});

/** A test as listed: the fields of `placement.completed`, plus the reason of a FAILED one. */
export const placementTestSchema = z.object({
  id: z.string(),
  testId: z.string(),
  batchId: z.string(),
  mailboxId: z.string(),
  mailboxEmail: z.string(),
  status,
  seedCount: z.number().int(),
  inboxCount: z.number().int(),
  spamCount: z.number().int(),
  missingCount: z.number().int(),
  gmailTabs: z
    .record(z.string(), z.number().int())
    .describe("Counts per inbox tab (PRIMARY, PROMOTIONS, …) for seeds whose server shows tabs"),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  deadlineAt: z.string().describe("Seeds are read until then; what is not found by then is MISSING"),
  error: z.string().nullable(),
});
export type PlacementTestView = z.infer<typeof placementTestSchema>;

export const placementResultSchema = z.object({
  seedEmail: z.string(),
  provider: z.string().describe("The seed's provider class: GOOGLE, MICROSOFT, YAHOO, ZOHO or OTHER"),
  placement: z.enum(["PENDING", "INBOX", "SPAM", "MISSING"]),
  folder: z.string().nullable().describe("The folder it was found in"),
  tab: z.string().nullable().describe("The inbox tab, for seeds whose server shows Gmail's labels"),
  receivedAt: z.string().nullable(),
  sendError: z.string().nullable().describe("Why the probe to this seed could not be sent (it is then MISSING)"),
});

export const placementDetailSchema = placementTestSchema.extend({ results: z.array(placementResultSchema) });
export type PlacementDetailView = z.infer<typeof placementDetailSchema>;

export const placementListSchema = z.object({
  tests: z.array(placementTestSchema),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
});
