/**
 * Campaign stats come from the one counting module (lib/analytics), so the campaign list,
 * GET /stats, the time series, the analytics routes and the reports agree.
 */
export { campaignStats, dailySeries, variantStats } from "../analytics/series";
export type { CampaignStats } from "../analytics/views";
