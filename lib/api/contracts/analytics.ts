import { bouncesFilter } from "../../analytics/bounces";
import {
  brandedReportSchema,
  brandingResponseSchema,
  bouncesSchema,
  domainStatsSchema,
  mailboxStatsQuery,
  mailboxStatsSchema,
  overviewQuery,
  overviewSchema,
  seriesQuery,
  seriesSchema,
} from "../../analytics/schemas";
import { brandingBody } from "../../analytics/branding";
import { engagementSettingsSchema } from "../../analytics/engagement-settings";
import { leadsCsvQuery } from "../../analytics/leads-csv";
import { defineRoute } from "../route";
import { csvText } from "./paged";

const tag = "Analytics";
const period =
  "Period: `from`/`to` (ISO date or date-time, `to` exclusive, a bare date is midnight UTC) or `days`; default 30 days, at most 366";

export const analyticsRoutes = {
  overview: defineRoute({
    method: "GET",
    path: "/analytics/overview",
    tag,
    access: "read",
    query: overviewQuery,
    summary: `Workspace totals of campaign email, counted as the campaign stats. ${period}`,
    response: { description: "The overview", schema: overviewSchema },
  }),
  timeseries: defineRoute({
    method: "GET",
    path: "/analytics/timeseries",
    tag,
    access: "read",
    query: seriesQuery,
    summary: "Workspace totals per UTC day, oldest first, zero days included (`days` or `from`/`to`, at most 90 days)",
    response: { description: "`{ from, to, days }`", schema: seriesSchema },
  }),
  mailboxStats: defineRoute({
    method: "GET",
    path: "/analytics/mailbox-stats",
    tag,
    access: "read",
    query: mailboxStatsQuery,
    summary: `Per mailbox: the period's numbers (rule 6), and activity over the last 7 days whatever the period (rule 8). ${period}`,
    response: { description: "`{ from, to, mailboxes }`", schema: mailboxStatsSchema },
  }),
  domainStats: defineRoute({
    method: "GET",
    path: "/analytics/domain-stats",
    tag,
    access: "read",
    query: overviewQuery,
    summary: `Per sending domain: the same numbers counted per domain, mailbox count, SPF/DKIM/DMARC, the best activity of its mailboxes. ${period}`,
    response: { description: "`{ from, to, domains }`", schema: domainStatsSchema },
  }),
  bounces: defineRoute({
    method: "GET",
    path: "/analytics/bounces",
    tag,
    access: "read",
    query: bouncesFilter,
    summary: `Bounces newest first (kind hard/soft; failed = refused at send time), SMTP code and reason (null before 2 Oct 2026). ${period}`,
    response: { description: "`{ from, to, bounces, total, page, limit }`", schema: bouncesSchema },
  }),
  campaignsCsv: defineRoute({
    method: "GET",
    path: "/reports/campaigns.csv",
    tag: "Reports",
    access: "read",
    summary:
      "CSV (RFC 4180, UTF-8, attachment): one row per campaign — id, name, status and every 2.4 number, counted as the campaign list",
    response: { description: "The report as CSV, a header row first", schema: csvText, contentType: "text/csv" },
  }),
  leadsCsv: defineRoute({
    method: "GET",
    path: "/reports/leads.csv",
    tag: "Reports",
    access: "read",
    role: "admin",
    query: leadsCsvQuery,
    summary:
      "CSV of the matching leads (filters campaignId, tagId, status — a campaign lead status): lead fields plus one column per custom field, " +
      "streamed; over 50,000 matching → 400 VALIDATION_ERROR",
    response: { description: "The report as CSV, a header row first", schema: csvText, contentType: "text/csv" },
    errors: [400, 403, 404],
  }),
  analyticsCsv: defineRoute({
    method: "GET",
    path: "/reports/analytics.csv",
    tag: "Reports",
    access: "read",
    query: overviewQuery,
    summary: `CSV of the overview's numbers, one row per UTC day of the period plus a total row equal to the overview. ${period}`,
    response: { description: "The report as CSV, a header row first", schema: csvText, contentType: "text/csv" },
  }),
  branded: defineRoute({
    method: "GET",
    path: "/reports/branded",
    tag: "Reports",
    access: "read",
    query: overviewQuery,
    summary: `The overview and every campaign's numbers as JSON, with the workspace's branding. ${period}`,
    response: {
      description: "`{ branding: { name, logoUrl, primaryColor, accentColor, footerText }, period: { from, to }, overview, campaigns }`",
      schema: brandedReportSchema,
    },
  }),
  getBranding: defineRoute({
    method: "GET",
    path: "/settings/branding",
    tag: "Reports",
    access: "read",
    summary: "The workspace's report branding (name defaults to the workspace's)",
    response: { description: "`{ branding: { name, logoUrl, primaryColor, accentColor, footerText } }`", schema: brandingResponseSchema },
  }),
  putBranding: defineRoute({
    method: "PUT",
    path: "/settings/branding",
    tag: "Reports",
    access: "write",
    role: "admin",
    body: brandingBody,
    summary:
      "Set the report branding: name, logoUrl (http/https), primaryColor and accentColor (#rrggbb), footerText (≤ 500); " +
      "only sent fields change, null clears one",
    response: { description: "`{ branding }`", schema: brandingResponseSchema },
  }),
  getEngagement: defineRoute({
    method: "GET",
    path: "/settings/engagement",
    tag: "Analytics",
    access: "read",
    summary: "How opens and clicks are counted: people only (default), or every hit with countMachineEngagement",
    response: { description: "`{ countMachineEngagement }`", schema: engagementSettingsSchema },
  }),
  putEngagement: defineRoute({
    method: "PUT",
    path: "/settings/engagement",
    tag: "Analytics",
    access: "write",
    role: "admin",
    body: engagementSettingsSchema,
    summary:
      "Count every tracking hit (true) or people's only (false, the default; Apple's privacy prefetch and security scanners are then " +
      "shown as machineOpenedCount / machineClickedCount). Owner or admin; applies to hits from then on",
    response: { description: "`{ countMachineEngagement }`", schema: engagementSettingsSchema },
  }),
};
