import type { RouteDef } from "../route";
import { accountRoutes } from "./account";
import { campaignRoutes } from "./campaigns";
import { aiRoutes, crmRoutes } from "./ai-crm";
import { inboxRoutes } from "./inbox";
import { leadRoutes } from "./leads";
import { webhookRoutes } from "./webhooks";
import { domainRoutes, mailboxRoutes } from "./mailboxes";
import { suppressionRoutes, tagRoutes, timezoneRoutes } from "./workspace";

/** Every /api/v1 route's contract; the OpenAPI document is generated from this list. */
export const allRoutes: RouteDef[] = [
  ...Object.values(leadRoutes),
  ...Object.values(tagRoutes),
  ...Object.values(suppressionRoutes),
  ...Object.values(timezoneRoutes),
  ...Object.values(campaignRoutes),
  ...Object.values(mailboxRoutes),
  ...Object.values(domainRoutes),
  ...Object.values(inboxRoutes),
  ...Object.values(aiRoutes),
  ...Object.values(crmRoutes),
  ...Object.values(webhookRoutes),
  ...Object.values(accountRoutes),
] as RouteDef[];
