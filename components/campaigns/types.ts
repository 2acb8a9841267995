/**
 * The API's response shapes, taken from the functions that build them (type-only imports: nothing of
 * lib/ reaches the browser bundle), so the dashboard cannot drift from what the routes return.
 */
import type { addLeadsToCampaign, listCampaignLeads, reassignLeads, removeLeads } from "@/lib/campaigns/campaign-leads";
import type { listAttachments, addAttachment } from "@/lib/campaigns/attachments";
import type { CampaignView, deleteCampaign, deletePreview, getSettings } from "@/lib/campaigns/campaigns";
import type { LaunchEntry, LaunchReport } from "@/lib/campaigns/launch-check";
import type { getPool, removeFromPool, selectPool } from "@/lib/campaigns/pool";
import type { previewStep, testSendStep } from "@/lib/campaigns/preview";
import type { checkSpamWords, SpamMatch } from "@/lib/campaigns/spam-words";
import type { stepView } from "@/lib/campaigns/steps";

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type Campaign = CampaignView;
export type CampaignStatus = Campaign["status"];
export type CampaignSettings = Result<typeof getSettings>;
export type Step = ReturnType<typeof stepView>;
export type Preview = Result<typeof previewStep>;
export type SpamReport = Result<typeof checkSpamWords>;
export type { SpamMatch, LaunchEntry, LaunchReport };
export type Attachment = Result<typeof listAttachments>["attachments"][number];
export type AddedAttachment = Result<typeof addAttachment>;
export type TestSendResult = Result<typeof testSendStep>;
export type Pool = Result<typeof getPool>;
export type PoolMailbox = Pool["mailboxes"][number];
export type PoolChange = Result<typeof selectPool>;
export type PoolRemoval = Result<typeof removeFromPool>;
export type CampaignLead = Result<typeof listCampaignLeads>["rows"][number];
export type AddLeadsResult = Result<typeof addLeadsToCampaign>;
export type AddLeadResultKind = "assigned" | "suppressed" | "no_eligible_mailbox" | "seg_blocked" | "error";
export type ReassignResult = Result<typeof reassignLeads>;
export type RemoveLeadsResult = Result<typeof removeLeads>;
export type DeletePreview = Result<typeof deletePreview>;
export type DeleteResult = Result<typeof deleteCampaign>;

/** GET /campaigns/<id>/leads wraps the rows in the paging envelope (spec 2.13). */
export interface CampaignLeadPage {
  leads: CampaignLead[];
  page: number;
  limit: number;
  total: number;
}
