import { deliverabilityRoutes } from "../contracts/deliverability";
import { placementRoutes } from "../contracts/placement";
import { warmupRoutes } from "../contracts/warmup";
import { acknowledgeAlert, listAlerts } from "../../deliverability/alerts-list";
import { mailboxReport } from "../../deliverability/mailbox-report";
import { deliverabilityOverview } from "../../deliverability/overview";
import { startPlacementTest } from "../../placement/start";
import { getPlacementTest, listPlacementTests } from "../../placement/view";
import { patchWarmup, resumeWarmup, startWarmup, stopWarmup } from "../../warmup/manage";
import type { ToolDef } from "./kit";

/** Warmup, inbox placement tests and the deliverability view (overview, per-mailbox report, alerts). */
export const DELIVERABILITY_TOOLS: ToolDef[] = [
  {
    name: "start_warmup",
    description:
      "Start warming a mailbox up at day 0 (restarts if already warming). Settings are optional; the provider's preset is used otherwise.",
    route: warmupRoutes.start,
    ids: { mailboxId: "id" },
    run: (ctx, { params, body }) => startWarmup(ctx, params.id, body),
  },
  {
    name: "stop_warmup",
    description: "Stop a mailbox's warmup (it keeps its history; resume_warmup continues where it stopped).",
    route: warmupRoutes.stop,
    ids: { mailboxId: "id" },
    run: (ctx, { params }) => stopWarmup(ctx, params.id),
  },
  {
    name: "resume_warmup",
    description: "Resume a paused or stopped warmup at the stage it had reached.",
    route: warmupRoutes.resume,
    ids: { mailboxId: "id" },
    run: (ctx, { params }) => resumeWarmup(ctx, params.id),
  },
  {
    name: "update_warmup",
    description: "Change a mailbox's warmup settings (daily volume, ramp, reply rate, …).",
    route: warmupRoutes.patch,
    ids: { mailboxId: "id" },
    run: (ctx, { params, body }) => patchWarmup(ctx, params.id, body),
  },
  {
    name: "start_placement_test",
    description:
      "Send a probe from a mailbox to every seed inbox and read where it lands (INBOX, SPAM or MISSING). Poll get_placement_test for the results.",
    route: placementRoutes.start,
    run: (ctx, { body }) => startPlacementTest(ctx, body),
  },
  {
    name: "list_placement_tests",
    description: "Placement tests, newest first, with their status and results per provider. Paged: page, limit.",
    route: placementRoutes.list,
    pageSize: 20,
    run: (ctx, { query }) => listPlacementTests(ctx, query),
  },
  {
    name: "get_placement_test",
    description: "One placement test: status and where the email landed for each seed inbox.",
    route: placementRoutes.get,
    ids: { testId: "id" },
    run: (ctx, { params }) => getPlacementTest(ctx, params.id),
  },
  {
    name: "get_deliverability_overview",
    description:
      "Mailbox and domain health counts, the 7-day bounce rate, the 30-day spam rate from placement tests, open alerts and the last placement test.",
    route: deliverabilityRoutes.overview,
    run: (ctx) => deliverabilityOverview(ctx),
  },
  {
    name: "get_mailbox_deliverability",
    description:
      "One mailbox's deliverability: health, warmup with its 30-day series, bounce rate, latest placements, blocklist hits, open alerts.",
    route: deliverabilityRoutes.mailbox,
    ids: { mailboxId: "id" },
    run: (ctx, { params }) => mailboxReport(ctx, params.id),
  },
  {
    name: "list_deliverability_alerts",
    description:
      "Deliverability alerts (bounce spikes, logins or reading failing, …), newest first. Filter with acknowledged, open (not resolved), kind, mailboxId.",
    route: deliverabilityRoutes.alerts,
    pageSize: 50,
    run: (ctx, { query }) => listAlerts(ctx, query),
  },
  {
    name: "acknowledge_alert",
    description: "Acknowledge a deliverability alert (it stays open until its condition ends).",
    route: deliverabilityRoutes.ack,
    ids: { alertId: "id" },
    run: (ctx, { params }) => acknowledgeAlert(ctx, params.id),
  },
];
