import { analyticsRoutes } from "../contracts/analytics";
import { campaignRoutes } from "../contracts/campaigns";
import { inboxRoutes } from "../contracts/inbox";
import { leadRoutes } from "../contracts/leads";
import { mailboxRoutes } from "../contracts/mailboxes";
import { analyticsOverview } from "../../analytics/overview";
import { resolvePeriod } from "../../analytics/period";
import { addLeadsToCampaign } from "../../campaigns/campaign-leads";
import { createCampaign, getCampaign, listCampaigns, setStatus } from "../../campaigns/campaigns";
import { getCampaignStats } from "../../campaigns/stats-views";
import { listReplies } from "../../inbox/read";
import { getThread } from "../../inbox/thread";
import { addReferralLead } from "../../inbox/referral-add";
import { sendReply } from "../../inbox/send-reply";
import { createLeads } from "../../leads/create-leads";
import { createLeadsAndVerify } from "../../finder/verify-leads";
import { listLeads } from "../../leads/read-leads";
import { mailboxIssues } from "../../mailboxes/issues";
import { listMailboxes } from "../../mailboxes/manage";
import { envelope } from "../../paging";
import type { ToolDef } from "./kit";
import { AGENT_TOOLS } from "./tools-reply-agents";
import { DELIVERABILITY_TOOLS } from "./tools-deliverability";
import { FINDER_TOOLS } from "./tools-finder";
import { SEQUENCE_TOOLS } from "./tools-sequences";
import { WORKSPACE_TOOLS } from "./tools-workspace";

/**
 * The MCP tools: each is one REST route — its contract gives the input schema and
 * validation, and the tool calls the same domain verb the route calls, so a tool can do exactly what
 * the route can and is refused exactly where the route refuses (scope, workspace, recipients).
 * Results are the REST response; a list REST answers as a plain array comes back in the paging
 * envelope (`page`, `limit`, `total`) here, because a tool result has no X-Total-Count header to carry it.
 */
const CORE_TOOLS: ToolDef[] = [
  {
    name: "list_campaigns",
    description:
      "List campaigns with their stats (sent, opened, replied, …), newest first. Filter by q (name), status (comma list), folder. Paged: page, limit.",
    route: campaignRoutes.list,
    pageSize: 50,
    run: async (ctx, { query }) => {
      const { rows, total } = await listCampaigns(ctx, query);
      return envelope("campaigns", rows, total, query);
    },
  },
  {
    name: "get_campaign",
    description: "One campaign: settings, status, schedule, mailbox pool.",
    route: campaignRoutes.get,
    ids: { campaignId: "id" },
    run: (ctx, { params }) => getCampaign(ctx, params.id),
  },
  {
    name: "get_campaign_stats",
    description: "A campaign's numbers (sent, bounced, opened, clicked, replied, positive) and per step × variant results.",
    route: campaignRoutes.stats,
    ids: { campaignId: "id" },
    run: (ctx, { params }) => getCampaignStats(ctx, params.id),
  },
  {
    name: "create_campaign",
    description: "Create a campaign (starts as DRAFT). Needs a name; schedule and sending settings are optional.",
    route: campaignRoutes.create,
    run: (ctx, { body }) => createCampaign(ctx, body),
  },
  {
    name: "set_campaign_status",
    description:
      "Set a campaign's status to ACTIVE (launch), PAUSED or ARCHIVED. Launching with blockers or warming mailboxes answers " +
      "LAUNCH_NEEDS_CONFIRMATION with the launch report; call again with confirm: true to launch anyway.",
    route: campaignRoutes.status,
    ids: { campaignId: "id" },
    run: (ctx, { params, body }) => setStatus(ctx, params.id, body),
  },
  {
    name: "create_leads",
    description:
      "Create up to 1,000 leads ({ leads: [{ email, firstName, lastName, companyName, customFields, … }] }); an existing email is reported, not duplicated.",
    route: leadRoutes.create,
    // verify: true also queues the SMTP verification of the saved addresses, as POST /leads does.
    run: (ctx, { body }) => (body.verify ? createLeadsAndVerify(ctx, body.leads) : createLeads(ctx, body.leads)),
  },
  {
    name: "search_leads",
    description:
      "Search leads by q (email, name or company contains), verificationStatus, espClass or tagId. Paged: page, limit (max 200).",
    route: leadRoutes.list,
    pageSize: 50,
    run: async (ctx, { query }) => {
      const { rows, total } = await listLeads(ctx, query);
      return envelope("leads", rows, total, query);
    },
  },
  {
    name: "add_leads_to_campaign",
    description:
      "Add existing leads (leadIds, up to 1,000) to a campaign; each gets a sending mailbox from the pool. Per lead: assigned, suppressed, no_eligible_mailbox, seg_blocked or error.",
    route: campaignRoutes.addLeads,
    ids: { campaignId: "id" },
    run: (ctx, { params, body }) => addLeadsToCampaign(ctx, params.id, body.leadIds),
  },
  {
    name: "list_replies",
    description:
      "Received replies, newest first. Filter by q, intent (e.g. INTERESTED), campaignId, hasReminder. Paged: page, limit (max 200).",
    route: inboxRoutes.list,
    pageSize: 50,
    run: async (ctx, { query }) => {
      const { rows, total } = await listReplies(ctx, query);
      return envelope("replies", rows, total, query);
    },
  },
  {
    name: "get_thread",
    description: "The whole conversation with a lead (received and sent messages), oldest first. Use a reply's leadId.",
    route: inboxRoutes.thread,
    ids: { leadId: "leadId" },
    run: (ctx, { params }) => getThread(ctx, params.leadId),
  },
  {
    name: "send_reply",
    description:
      "Answer a received reply (replyId), threaded, from the mailbox it came to. body is the text. " +
      "to/cc/bcc default to the sender and may only name people already in the conversation (else FORBIDDEN).",
    route: inboxRoutes.send,
    ids: { replyId: "id" },
    run: (ctx, { params, body }) => sendReply(ctx, params.id, body),
  },
  {
    name: "add_referral_lead",
    description:
      "A WRONG_PERSON reply (replyId) that names someone else (its referral): make that person a lead, as create_leads does, " +
      "with custom fields referrerName and referrerEmail, and add them to campaignId (default: the reply's campaign). " +
      "CONFLICT when the reply names no address.",
    route: inboxRoutes.referralAdd,
    ids: { replyId: "id" },
    run: (ctx, { params, body }) => addReferralLead(ctx, params.id, body ?? {}),
  },
  {
    name: "list_mailboxes",
    description: "Sending mailboxes with status, daily cap and warmup. Filter by email. Paged: page, limit.",
    route: mailboxRoutes.list,
    pageSize: 50,
    run: async (ctx, { query }) => {
      const { rows, total } = await listMailboxes(ctx, query);
      return envelope("mailboxes", rows, total, query);
    },
  },
  {
    name: "list_mailbox_issues",
    description: "Mailboxes that need attention (disconnected, failing to read, bounce-paused, DNS problems) and what is wrong with each.",
    route: mailboxRoutes.issues,
    run: (ctx) => mailboxIssues(ctx),
  },
  {
    name: "get_analytics_overview",
    description:
      "Workspace totals for a period (sent, bounced, opened, clicked, replied, positive, leads contacted, rates). Period: days, or from/to; default 30 days.",
    route: analyticsRoutes.overview,
    run: (ctx, { query }) => analyticsOverview(ctx, resolvePeriod(query, ctx.clock.now())),
  },
];

/** Every tool, by area. */
export const TOOLS: ToolDef[] = [
  ...CORE_TOOLS,
  ...SEQUENCE_TOOLS,
  ...AGENT_TOOLS,
  ...FINDER_TOOLS,
  ...DELIVERABILITY_TOOLS,
  ...WORKSPACE_TOOLS,
];
