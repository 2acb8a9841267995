import { z } from "zod";
import { pageQuery } from "../paging";

export const securitySchema = z.enum(["SSL", "STARTTLS", "NONE"]);
const port = z.number().int().min(1).max(65535);
const host = z.string().trim().min(1).max(253);

export const connectByEmailBody = z.object({
  appPassword: z.string().min(1, "appPassword is required").max(500).describe("App password; spaces are ignored"),
  senderName: z.string().trim().max(200).nullable().optional(),
  tagIds: z.array(z.string().max(100)).max(100).optional().describe("Added, never removed"),
  warmupGroup: z.string().trim().max(100).nullable().optional(),
});

export const importItem = z.object({
  email: z.string().max(320),
  senderName: z.string().trim().max(200).nullable().optional(),
  smtpHost: host,
  smtpPort: port,
  smtpUsername: z.string().max(320).optional(),
  smtpPassword: z.string().min(1).max(500),
  smtpSecurity: securitySchema.optional(),
  imapHost: host,
  imapPort: port,
  imapUsername: z.string().max(320).optional(),
  imapPassword: z.string().max(500).optional(),
  imapSecurity: securitySchema.optional(),
  dailySendCap: z.number().int().min(0).max(10_000).optional(),
  signatureHtml: z.string().max(20_000).nullable().optional(),
  warmupGroup: z.string().trim().max(100).nullable().optional(),
  isSeed: z.boolean().optional().describe("A seed receives placement probes and warmup and never sends campaign email"),
  tagIds: z.array(z.string().max(100)).max(100).optional(),
});
export type ImportItem = z.infer<typeof importItem>;

export const bulkImportBody = z.object({
  mailboxes: z.array(importItem).min(1).max(1000, "at most 1,000 mailboxes per call"),
  verify: z.boolean().default(true),
});

export const patchMailboxBody = z
  .object({
    senderName: z.string().trim().max(200).nullable().optional(),
    signatureHtml: z.string().max(20_000).nullable().optional(),
    dailySendCap: z.number().int().min(0).max(20, "dailySendCap can be at most 20 through PATCH").optional(),
    sendingEnabled: z.boolean().optional(),
    assumedWarm: z.boolean().optional(),
    warmupGroup: z.string().trim().max(100).nullable().optional(),
    isSeed: z.boolean().optional().describe("A seed receives placement probes and warmup and never sends campaign email"),
    smtpHost: host.optional(),
    smtpPort: port.optional(),
    smtpSecurity: securitySchema.optional(),
    smtpUsername: z.string().min(1).max(320).optional(),
    smtpPassword: z.string().min(1).max(500).optional(),
    imapHost: host.optional(),
    imapPort: port.optional(),
    imapSecurity: securitySchema.optional(),
    imapUsername: z.string().min(1).max(320).optional(),
    imapPassword: z.string().min(1).max(500).optional(),
  })
  .refine((o) => Object.keys(o).length > 0, "send at least one field");
export type PatchMailboxInput = z.infer<typeof patchMailboxBody>;

export const CREDENTIAL_FIELDS = [
  "smtpHost",
  "smtpPort",
  "smtpSecurity",
  "smtpUsername",
  "smtpPassword",
  "imapHost",
  "imapPort",
  "imapSecurity",
  "imapUsername",
  "imapPassword",
] as const;

export const bulkDailyCapBody = z.object({
  mailboxIds: z.array(z.string().max(100)).min(1).max(5000),
  dailySendCap: z.number().int().min(0).max(20, "dailySendCap can be at most 20"),
});

export const testSendBody = z.object({
  to: z.email("to must be an email address"),
  subject: z.string().max(500).optional(),
  body: z.string().max(100_000).optional(),
});

export const listMailboxesQuery = pageQuery({ defaultLimit: 5000, maxLimit: 5000 }).extend({
  email: z.string().max(320).optional().describe("Case-insensitive address match"),
});

/** The ramp of a mailbox's warmup (see docs/warmup.md). */
export const warmupSchema = z.object({
  dayIndex: z.number().int().describe("UTC days of active warmup so far (day 0 is the first)"),
  startingVolume: z.number().int(),
  dailyIncrease: z.number().int(),
  targetVolume: z.number().int(),
  replyRateMinPct: z.number().int(),
  replyRateMaxPct: z.number().int(),
  todayTarget: z.number().int().describe("min(startingVolume + dayIndex × dailyIncrease, targetVolume)"),
  sentToday: z.number().int().describe("Warmup emails this mailbox started today (UTC)"),
  repliedToday: z.number().int().describe("Answers its warmup emails got today (UTC)"),
  startedAt: z.string(),
  pausedAt: z.string().nullable(),
});
export type WarmupView = z.infer<typeof warmupSchema>;

export const HEALTH_STATUSES = ["HEALTHY", "UNCHECKED", "LOGIN_FAILING", "READ_FAILING", "AUTO_PAUSED", "PAUSED"] as const;

export const mailboxSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailAddress: z.string(),
  domain: z.string(),
  domainId: z.string(),
  senderName: z.string().nullable(),
  signatureHtml: z.string().nullable(),
  provider: z.string(),
  espClass: z.string(),
  authType: z.enum(["PASSWORD", "OAUTH"]),
  smtpHost: z.string(),
  smtpPort: z.number(),
  smtpSecurity: securitySchema,
  smtpUsername: z.string(),
  imapHost: z.string(),
  imapPort: z.number(),
  imapSecurity: securitySchema,
  imapUsername: z.string(),
  dailySendCap: z.number(),
  sendingEnabled: z.boolean(),
  assumedWarm: z.boolean(),
  warmupGroup: z.string().nullable(),
  warmupStatus: z.enum(["OFF", "EARLY", "RAMPING", "STEADY", "PAUSED", "AUTO_PAUSED"]),
  warmup: warmupSchema.nullable().describe("The warmup ramp; null when warmup was never started"),
  isSeed: z.boolean(),
  healthStatus: z.enum(HEALTH_STATUSES),
  loginError: z.string().nullable(),
  readError: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  tags: z.array(z.object({ id: z.string(), name: z.string(), color: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MailboxView = z.infer<typeof mailboxSchema>;

export const ISSUE_KINDS = ["LOGIN_FAILING", "READ_FAILING", "AUTO_PAUSED"] as const;
export const mailboxIssueSchema = z.object({
  mailboxId: z.string(),
  email: z.string(),
  kind: z.enum(ISSUE_KINDS),
  since: z.string(),
  detail: z.string().nullable(),
  fix: z.string(),
});
