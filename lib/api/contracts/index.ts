import type { RouteDef } from "../route";
import { accountRoutes } from "./account";
import { campaignRoutes } from "./campaigns";
import { deliverabilityRoutes } from "./deliverability";
import { aiRoutes, crmRoutes } from "./ai-crm";
import { aiProviderRoutes } from "./ai-provider";
import { inboxRoutes } from "./inbox";
import { leadRoutes } from "./leads";
import { placementRoutes } from "./placement";
import { webhookRoutes } from "./webhooks";
import { domainRoutes, mailboxRoutes } from "./mailboxes";
import { suppressionRoutes, tagRoutes, timezoneRoutes } from "./workspace";
import { warmupRoutes } from "./warmup";
import { oauthRoutes } from "./oauth";
import { analyticsRoutes } from "./analytics";
import { agentRoutes } from "./reply-agents";
import { copyFatigueRoutes } from "./copy-fatigue";
import { agentReplyRoutes } from "./reply-agent-activity";
import { finderRoutes } from "./finder";
import { securityRoutes } from "./security";
import { memberRoutes } from "./members";
import { auditRoutes } from "./audit";
import { onboardingRoutes } from "./onboarding";
import { trackingDomainRoutes } from "./tracking-domains";

/** Every /api/v1 route's contract; the OpenAPI document is generated from this list. */
export const allRoutes: RouteDef[] = [
  leadRoutes,
  tagRoutes,
  suppressionRoutes,
  timezoneRoutes,
  campaignRoutes,
  mailboxRoutes,
  oauthRoutes,
  warmupRoutes,
  domainRoutes,
  trackingDomainRoutes,
  inboxRoutes,
  aiRoutes,
  aiProviderRoutes,
  crmRoutes,
  webhookRoutes,
  accountRoutes,
  securityRoutes,
  memberRoutes,
  auditRoutes,
  placementRoutes,
  deliverabilityRoutes,
  analyticsRoutes,
  finderRoutes,
  copyFatigueRoutes,
  agentReplyRoutes,
  agentRoutes,
  onboardingRoutes,
].flatMap((group) => Object.values(group) as RouteDef[]);
