import { z } from "zod";
import { alerts, blacklistJobs, placementStatusEnum, warmupStatusEnum } from "../../../db/schema";
import { HEALTH_STATUSES } from "../../mailboxes/schemas";
import { listAlertsQuery } from "../../deliverability/alerts-list";
import { blacklistCheckBody, blacklistResultsQuery } from "../../deliverability/blacklist";
import { defineRoute } from "../route";
import { pagedListResponse } from "./paged";

const tag = "Deliverability";
const iso = z.string().describe("ISO 8601 UTC");
const rate = z.number().nullable();

export const alertSchema = z.object({
  id: z.string(),
  kind: z.enum(alerts.kind.enumValues),
  severity: z.enum(["critical", "warning", "info"]),
  subject: z.string().describe("What the alert is about: a mailbox id, a domain or an IP address"),
  mailboxId: z.string().nullable(),
  domain: z.string().nullable(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: iso,
  acknowledgedAt: iso.nullable(),
  resolvedAt: iso.nullable().describe("null while the condition holds (an open alert)"),
});

const placementSummary = z.object({
  id: z.string(),
  batchId: z.string(),
  mailboxId: z.string(),
  mailboxEmail: z.string(),
  status: z.enum(placementStatusEnum.enumValues),
  seedCount: z.number(),
  inboxCount: z.number(),
  spamCount: z.number(),
  missingCount: z.number(),
  createdAt: iso,
  completedAt: iso.nullable(),
});

const jobSchema = z.object({
  id: z.string(),
  status: z.enum(blacklistJobs.status.enumValues),
  total: z.number().describe("(target × zone) look-ups; grows once when sending domains' addresses are added as the job starts"),
  done: z.number(),
  listedCount: z.number(),
  failedCount: z.number().describe("look-ups a zone could not answer"),
  targets: z.number(),
  error: z.string().nullable(),
  createdAt: iso,
  completedAt: iso.nullable(),
});

const resultSchema = z.object({
  target: z.string(),
  type: z.enum(["domain", "ip"]),
  zone: z.string(),
  listed: z.boolean(),
  answer: z.string().nullable().describe("The zone's answer when listed, the error when the look-up failed, null when not listed"),
  failed: z.boolean(),
  checkedAt: iso,
});

const overviewSchema = z.object({
  mailboxes: z.object({ total: z.number(), healthy: z.number(), warming: z.number(), paused: z.number(), failing: z.number() }),
  domains: z.object({ total: z.number(), failing: z.number(), blacklisted: z.number() }),
  bounceRate7d: rate,
  spamRate30d: rate,
  openAlerts: z.number(),
  unacknowledgedAlerts: z.number(),
  lastPlacement: placementSummary.nullable(),
});

const warmupDay = z.object({ date: z.string(), target: z.number(), sent: z.number(), replied: z.number() });
const warmupSchema = z.object({
  dayIndex: z.number(),
  startingVolume: z.number(),
  dailyIncrease: z.number(),
  targetVolume: z.number(),
  replyRateMinPct: z.number(),
  replyRateMaxPct: z.number(),
  todayTarget: z.number(),
  sentToday: z.number(),
  repliedToday: z.number(),
  startedAt: iso,
  pausedAt: iso.nullable(),
  daily: z.array(warmupDay),
});

const mailboxReportSchema = z.object({
  mailbox: z.object({ id: z.string(), email: z.string(), domain: z.string(), sendingEnabled: z.boolean(), dailySendCap: z.number() }),
  health: z.object({
    status: z.enum(HEALTH_STATUSES),
    loginFailingSince: iso.nullable(),
    loginError: z.string().nullable(),
    readFailingSince: iso.nullable(),
    readError: z.string().nullable(),
    autoPausedAt: iso.nullable(),
    autoPauseReason: z.string().nullable(),
    lastCheckedAt: iso.nullable(),
  }),
  warmupStatus: z.enum(warmupStatusEnum.enumValues),
  warmup: warmupSchema.nullable(),
  bounceRate: rate,
  bounces: z.object({ sent: z.number(), bounced: z.number(), days: z.number() }),
  placements: z.array(placementSummary),
  blacklist: z.object({
    domainStatus: z.string(),
    hits: z.array(
      z.object({
        target: z.string(),
        type: z.enum(["domain", "ip"]),
        zone: z.string(),
        answer: z.string().nullable(),
        checkedAt: z.string(),
        source: z.enum(["job", "domain-check"]),
        jobId: z.string().nullable(),
      }),
    ),
  }),
  alerts: z.array(alertSchema),
});

const analyticsMailbox = z.object({
  id: z.string(),
  email: z.string(),
  domain: z.string(),
  healthStatus: z.enum(HEALTH_STATUSES),
  warmupStatus: z.enum(warmupStatusEnum.enumValues),
  sendingEnabled: z.boolean(),
  isSeed: z.boolean(),
  dailySendCap: z.number(),
  sentToday: z.number(),
  sent30d: z.number(),
  bounced30d: z.number(),
  bounceRate: z.number(),
});

export const deliverabilityRoutes = {
  overview: defineRoute({
    method: "GET",
    path: "/deliverability/overview",
    tag,
    access: "read",
    summary: "Mailbox and domain health counts, 7-day bounce rate, 30-day spam rate from placement tests, open alerts, last placement test",
    response: { description: "The overview", schema: overviewSchema },
  }),
  alerts: defineRoute({
    method: "GET",
    path: "/deliverability/alerts",
    tag,
    access: "read",
    query: listAlertsQuery,
    summary: "Alerts, newest first; filter with acknowledged, open (not resolved), kind, mailboxId",
    response: pagedListResponse("alerts", alertSchema),
  }),
  ack: defineRoute({
    method: "POST",
    path: "/deliverability/alerts/{id}/ack",
    tag,
    access: "write",
    summary: "Acknowledge an alert (again: keeps the first time). It stays open until its condition ends",
    response: { description: "The alert with acknowledgedAt", schema: alertSchema },
  }),
  mailbox: defineRoute({
    method: "GET",
    path: "/deliverability/mailboxes/{id}",
    tag,
    access: "read",
    summary: "One mailbox: health, warmup with its 30-day series, bounce rate, latest placements, blacklist hits, open alerts",
    response: { description: "The mailbox's deliverability", schema: mailboxReportSchema },
  }),
  analyticsMailboxes: defineRoute({
    method: "GET",
    path: "/analytics/mailboxes",
    tag: "Analytics",
    access: "read",
    summary: "Per mailbox: health, warmup status, daily cap, campaign emails today, 30-day bounce rate (warmup never counted)",
    response: { description: "`{ mailboxes }`", schema: z.object({ mailboxes: z.array(analyticsMailbox) }) },
  }),
  blacklistStart: defineRoute({
    method: "POST",
    path: "/blacklist/bulk-check",
    tag,
    access: "write",
    body: blacklistCheckBody,
    summary:
      "Start a blacklist check of domains and IPs (empty body or {}: every sending domain and the addresses its A/MX records point to). " +
      "Unknown domainIds → 400 on domainIds",
    response: {
      status: 202,
      description: "`{ jobId, status }`",
      schema: z.object({ jobId: z.string(), status: z.enum(blacklistJobs.status.enumValues) }),
    },
  }),
  blacklistJob: defineRoute({
    method: "GET",
    path: "/blacklist/bulk-check/{jobId}",
    tag,
    access: "read",
    summary: "A blacklist check job's status and progress",
    response: { description: "The job", schema: jobSchema },
  }),
  blacklistResults: defineRoute({
    method: "GET",
    path: "/blacklist/bulk-check/{jobId}/results",
    tag,
    access: "read",
    query: blacklistResultsQuery,
    summary: "A job's answers, listed first; ?listed=true for listings only",
    response: pagedListResponse("results", resultSchema),
  }),
};
