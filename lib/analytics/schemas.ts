import { z } from "zod";
import { MAX_SERIES_DAYS, periodQuery, periodShape, refinePeriod } from "./period";

/** A campaign's counts and rates, as every list, stats answer and CSV reports them. */
export const campaignStatsShape = {
  sentCount: z.number().int().describe("Emails sent (a 3-step sequence sends 3 per lead)"),
  leadsContacted: z.number().int().describe("Leads that got at least one email"),
  openedCount: z.number().int(),
  openedRate: z.number().describe("Over leadsContacted"),
  clickedCount: z.number().int(),
  clickedRate: z.number().describe("Over leadsContacted"),
  machineOpenedCount: z
    .number()
    .int()
    .describe("Leads whose email only machines opened (Apple's privacy prefetch, security scanners): not in openedCount"),
  machineClickedCount: z.number().int().describe("Leads whose links only security scanners followed: not in clickedCount"),
  repliedCount: z.number().int(),
  repliedRate: z.number().describe("Over leadsContacted"),
  positiveCount: z.number().int(),
  positiveRate: z.number().describe("Over leadsContacted"),
  bouncedCount: z.number().int(),
  bouncedRate: z.number().describe("Over sentCount"),
  opensTracked: z.boolean().describe("When false, the open numbers are meaningless"),
  clicksTracked: z.boolean().describe("When false, the click numbers are meaningless"),
};

/** Query and response schemas of the analytics and report routes (lib/api/contracts/analytics.ts). */

export const overviewQuery = periodQuery();
export const seriesQuery = periodQuery(MAX_SERIES_DAYS);
export const mailboxStatsQuery = z.object({ ...periodShape(), domain: z.string().max(253).optional() }).superRefine(refinePeriod());

const period = { from: z.string(), to: z.string() };
const rateNum = z.number().min(0);

export const overviewSchema = z.object({
  ...period,
  totalSent: z.number().int(),
  leadsContacted: z.number().int(),
  totalOpened: z.number().int(),
  totalClicked: z.number().int(),
  machineOpenedCount: z.number().int().describe("Leads whose email only machines opened in the period: not in totalOpened"),
  machineClickedCount: z.number().int().describe("Leads whose links only security scanners followed in the period: not in totalClicked"),
  totalReplied: z.number().int(),
  totalPositive: z.number().int(),
  totalBounced: z.number().int(),
  totalLeads: z.number().int(),
  totalMailboxes: z.number().int(),
  openRate: rateNum,
  clickRate: rateNum,
  replyRate: rateNum,
  positiveRate: rateNum,
  bounceRate: rateNum,
  opensTracked: z.boolean(),
  clicksTracked: z.boolean(),
});

export const daySchema = z.object({
  date: z.string(),
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  replied: z.number().int(),
  positive: z.number().int(),
  bounced: z.number().int(),
});
export const seriesSchema = z.object({ ...period, days: z.array(daySchema) });

const activity = z.enum(["active", "low_activity", "inactive", "not_sending"]);
const senderNumbers = {
  sent: z.number().int(),
  bouncedHard: z.number().int(),
  bouncedSoft: z.number().int(),
  bounced: z.number().int(),
  bounceRate: rateNum,
  failed: z.number().int(),
  leadsContacted: z.number().int(),
  replied: z.number().int(),
  positive: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  replyRate: rateNum,
  positiveRate: rateNum,
  lastSentAt: z.string().nullable(),
  activity,
  sentLast7Days: z.number().int(),
  /** Campaign emails sent per UTC day over the last 14 days (today included), oldest first: the sparkline. */
  sentDaily: z.array(z.number().int()),
};
export const mailboxStatsSchema = z.object({
  ...period,
  mailboxes: z.array(
    z.object({
      id: z.string(),
      emailAddress: z.string(),
      domain: z.string(),
      healthStatus: z.string(),
      sendingEnabled: z.boolean(),
      dailySendCap: z.number().int(),
      ...senderNumbers,
    }),
  ),
});
export const domainStatsSchema = z.object({
  ...period,
  domains: z.array(
    z.object({
      domain: z.string(),
      mailboxes: z.number().int(),
      spfStatus: z.string(),
      dkimStatus: z.string(),
      dmarcStatus: z.string(),
      ...senderNumbers,
    }),
  ),
});

export const bouncesSchema = z.object({
  ...period,
  bounces: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["hard", "soft", "failed"]),
      at: z.string(),
      code: z.string().nullable(),
      reason: z.string().nullable(),
      leadEmail: z.string(),
      mailboxEmail: z.string(),
      domain: z.string(),
      campaign: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
      stepOrder: z.number().int().nullable(),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

/** The workspace's report branding (GET and PUT /settings/branding, the branded report). */
export const brandingSchema = z.object({
  name: z.string(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string().nullable(),
  accentColor: z.string().nullable(),
  footerText: z.string().nullable(),
});
export const brandingResponseSchema = z.object({ branding: brandingSchema });

/** GET /reports/branded: the overview of the period and every campaign's counts and rates, with the branding. */
export const brandedReportSchema = z.object({
  branding: brandingSchema,
  period: z.object(period),
  overview: overviewSchema.omit({ from: true, to: true }),
  campaigns: z.array(z.object({ id: z.string(), name: z.string(), status: z.string(), ...campaignStatsShape })),
});
