/**
 * The API's response shapes, from the typed client generated from the OpenAPI document (lib/client):
 * a change to a contract is a type error in the screens that read it.
 */
import type { ResponseOf } from "@/lib/client";

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Campaign = ResponseOf<"/campaigns/{id}", "get">;
export type CampaignStatus = Campaign["status"];
export type CampaignSettings = ResponseOf<"/campaigns/{id}/settings", "get">;
export type Step = ResponseOf<"/campaigns/{id}/steps/{stepId}", "patch">;
export type Preview = ResponseOf<"/campaigns/{id}/steps/preview", "post">;
export type SpamReport = ResponseOf<"/campaigns/{id}/check-spam-words", "post">;
export type SpamMatch = Item<SpamReport["steps"]>["matches"][number];
export type RspamdStep = NonNullable<SpamReport["rspamd"]>["steps"][number];
export type LaunchReport = ResponseOf<"/campaigns/{id}/launch-check", "get">;
export type LaunchEntry = LaunchReport["blockers"][number];
export type Attachment = ResponseOf<"/campaigns/{id}/steps/{stepId}/attachments", "get">["attachments"][number];
export type AddedAttachment = ResponseOf<"/campaigns/{id}/steps/{stepId}/attachments", "post">;
export type TestSendResult = ResponseOf<"/campaigns/{id}/steps/{stepId}/test-send", "post">;
export type Pool = ResponseOf<"/campaigns/{id}/mailboxes", "get">;
export type PoolMailbox = Pool["mailboxes"][number];
export type PoolChange = ResponseOf<"/campaigns/{id}/mailboxes/select", "post">;
export type PoolRemoval = ResponseOf<"/campaigns/{id}/mailboxes/remove", "post">;
/** GET /campaigns/<id>/leads wraps the rows in the paging envelope. */
export type CampaignLeadPage = ResponseOf<"/campaigns/{id}/leads", "get">;
export type CampaignLead = CampaignLeadPage["leads"][number];
export type AddLeadsResult = ResponseOf<"/campaigns/{id}/leads", "post">;
export type AddLeadResultKind = AddLeadsResult["results"][number]["result"];
export type ReassignResult = ResponseOf<"/campaigns/{id}/leads/reassign", "post">;
export type RemoveLeadsResult = ResponseOf<"/campaigns/{id}/leads/remove", "post">;
export type DeletePreview = ResponseOf<"/campaigns/{id}/delete-preview", "get">;
export type DeleteResult = ResponseOf<"/campaigns/{id}", "delete">;
