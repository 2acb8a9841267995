import { aiProviderRoutes } from "../contracts/ai-provider";
import { aiRoutes } from "../contracts/ai-crm";
import { analyticsRoutes } from "../contracts/analytics";
import { leadRoutes } from "../contracts/leads";
import { onboardingRoutes } from "../contracts/onboarding";
import { trackingDomainRoutes } from "../contracts/tracking-domains";
import { suppressionRoutes, tagRoutes } from "../contracts/workspace";
import { getAiProviderSetting, testAiProvider } from "../../ai/provider-setting";
import { getAiSettings, patchAiSettings } from "../../ai/settings";
import { getBranding, putBranding } from "../../analytics/branding";
import { bulkTagLeads, bulkUntagLeads } from "../../tags/bulk-tags";
import { leadCampaigns } from "../../leads/lead-campaigns";
import { getLead } from "../../leads/read-leads";
import { leadTimeline } from "../../leads/timeline";
import { getOnboarding } from "../../onboarding/onboarding";
import { addTrackingDomain, listTrackingDomains, verifyTrackingDomain } from "../../domains/tracking-domains";
import { envelope } from "../../paging";
import { bulkAddSuppressions } from "../../suppressions/bulk";
import { deleteSuppression, listSuppressions } from "../../suppressions/suppressions";
import { updateTag } from "../../tags/manage";
import { createTag, deleteTag, listTags } from "../../tags/tags";
import type { ToolDef } from "./kit";

/** One lead in depth, tags, the suppression list and the workspace's settings (AI, branding, set-up checklist). */
export const WORKSPACE_TOOLS: ToolDef[] = [
  {
    name: "get_lead",
    description: "One lead: its fields, custom fields, tags, verification and whether it is suppressed.",
    route: leadRoutes.get,
    ids: { leadId: "id" },
    run: (ctx, { params }) => getLead(ctx, params.id),
  },
  {
    name: "get_lead_timeline",
    description:
      "What happened with a lead, newest first: emails sent (step, variant, mailbox), opens, clicks, replies with intent, bounces, " +
      "unsubscribes, campaigns joined and left, tags, suppression. Paged: page, limit.",
    route: leadRoutes.timeline,
    ids: { leadId: "id" },
    pageSize: 50,
    run: async (ctx, { params, query }) => {
      const { rows, total } = await leadTimeline(ctx, params.id, query);
      return envelope("events", rows, total, query);
    },
  },
  {
    name: "get_lead_campaigns",
    description: "The campaigns a lead is in, with its status and step in each.",
    route: leadRoutes.campaigns,
    ids: { leadId: "id" },
    run: async (ctx, { params }) => ({ campaigns: await leadCampaigns(ctx, params.id) }),
  },
  {
    name: "tag_leads",
    description: "Put a tag (tagId) on up to 1,000 leads (leadIds); reports how many were tagged.",
    route: leadRoutes.bulkTag,
    run: (ctx, { body }) => bulkTagLeads(ctx, body),
  },
  {
    name: "untag_leads",
    description: "Take a tag (tagId) off up to 1,000 leads (leadIds).",
    route: leadRoutes.bulkUntag,
    run: (ctx, { body }) => bulkUntagLeads(ctx, body),
  },
  {
    name: "list_tags",
    description: "The workspace's tags with their colour and how many leads and mailboxes carry each.",
    route: tagRoutes.list,
    run: async (ctx) => ({ tags: await listTags(ctx) }),
  },
  {
    name: "create_tag",
    description: "Create a tag (name, optional color as #rrggbb).",
    route: tagRoutes.create,
    run: (ctx, { body }) => createTag(ctx, body),
  },
  {
    name: "update_tag",
    description: "Rename or recolour a tag (only the fields sent change; color null clears it).",
    route: tagRoutes.update,
    ids: { tagId: "tagId" },
    run: (ctx, { params, body }) => updateTag(ctx, params.tagId, body),
  },
  {
    name: "delete_tag",
    description: "Delete a tag; it comes off every lead and mailbox that carried it.",
    route: tagRoutes.delete,
    ids: { tagId: "tagId" },
    run: (ctx, { params }) => deleteTag(ctx, params.tagId),
  },
  {
    name: "list_suppressions",
    description: "The suppression list (addresses and domains never emailed). Search with q. Paged: page, limit.",
    route: suppressionRoutes.list,
    pageSize: 50,
    run: async (ctx, { query }) => {
      const { rows, total } = await listSuppressions(ctx, query);
      return envelope("suppressions", rows, total, query);
    },
  },
  {
    name: "suppress_addresses",
    description:
      "Add up to 1,000 addresses or domains to the suppression list, with one result per entry (added, existing, duplicate, invalid with why).",
    route: suppressionRoutes.bulk,
    run: (ctx, { body }) => bulkAddSuppressions(ctx, body),
  },
  {
    name: "remove_suppression",
    description: "Remove an entry from the suppression list (the address or domain may be emailed again).",
    route: suppressionRoutes.delete,
    ids: { suppressionId: "id" },
    run: (ctx, { params }) => deleteSuppression(ctx, params.id),
  },
  {
    name: "get_ai_provider",
    description: "Which AI provider answers (the workspace's own, the server's, or none: template text) with its model; never the key.",
    route: aiProviderRoutes.get,
    run: (ctx) => getAiProviderSetting(ctx),
  },
  {
    name: "test_ai_provider",
    description: "Call the configured AI provider once: ok with the model and latency, or the reason it failed.",
    route: aiProviderRoutes.test,
    run: (ctx) => testAiProvider(ctx),
  },
  {
    name: "get_ai_settings",
    description:
      "The workspace's AI settings (classification, drafts, auto-tagging, custom instructions, monthly credits) and credits used.",
    route: aiRoutes.get,
    run: (ctx) => getAiSettings(ctx),
  },
  {
    name: "update_ai_settings",
    description: "Change AI settings: aiClassificationEnabled, aiDraftEnabled, autoTagOnReply, customInstructions, monthlyCredits.",
    route: aiRoutes.patch,
    run: (ctx, { body }) => patchAiSettings(ctx, body),
  },
  {
    name: "get_branding",
    description: "The branding of the branded report (company name, logo URL, colours, footer).",
    route: analyticsRoutes.getBranding,
    run: async (ctx) => ({ branding: await getBranding(ctx) }),
  },
  {
    name: "update_branding",
    description: "Change the branded report's branding (company name, logo URL, primary and accent colour, footer).",
    route: analyticsRoutes.putBranding,
    run: (ctx, { body }) => putBranding(ctx, body),
  },
  {
    name: "list_tracking_domains",
    description:
      "The workspace's own tracking domains (hosts of the open pixel, click and unsubscribe links): status PENDING, VERIFIED or FAILING, the CNAME target, the default.",
    route: trackingDomainRoutes.list,
    run: (ctx) => listTrackingDomains(ctx),
  },
  {
    name: "add_tracking_domain",
    description:
      "Add a tracking domain (domain: a host such as track.example.com; owner or admin). Answers the CNAME record to create (domain → cnameTarget).",
    route: trackingDomainRoutes.create,
    run: (ctx, { body }) => addTrackingDomain(ctx, body),
  },
  {
    name: "verify_tracking_domain",
    description:
      "Check a tracking domain's DNS now: VERIFIED when its CNAME points at cnameTarget, else FAILING with what the DNS answered (lastError).",
    route: trackingDomainRoutes.verify,
    ids: { trackingDomainId: "id" },
    run: (ctx, { params }) => verifyTrackingDomain(ctx, params.id),
  },
  {
    name: "get_setup_checklist",
    description:
      "The workspace's set-up checklist: mailbox connected, its domain's SPF/DKIM/DMARC, warmup, leads, a campaign with a step, launched — each done or not, with the page that does it.",
    route: onboardingRoutes.get,
    run: (ctx) => getOnboarding(ctx),
  },
];
