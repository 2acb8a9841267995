/**
 * The stats endpoints' response shapes, from the typed client generated from the OpenAPI document
 * (lib/client): a change to a contract is a type error in the stats tabs.
 */
import type { QueryOf, ResponseOf } from "@/lib/client";

export type CampaignStatsView = ResponseOf<"/campaigns/{id}/stats", "get">;
export type VariantResult = CampaignStatsView["variants"][number];
export type Timeseries = ResponseOf<"/campaigns/{id}/timeseries", "get">;
export type DayCounts = Timeseries["series"][number];
export type Schedule = ResponseOf<"/campaigns/{id}/schedule", "get">;
export type ScheduleDay = Schedule["totals"][number];
export type ScheduleMailbox = Schedule["mailboxes"][number];
export type UpcomingSend = Schedule["upcoming"][number];
export type EmailStatus = NonNullable<QueryOf<"/campaigns/{id}/activity", "get">["status"]>;

/** GET /campaigns/<id>/activity wraps the rows in the paging envelope. */
export type ActivityPage = ResponseOf<"/campaigns/{id}/activity", "get">;
/** One email of GET /campaigns/<id>/activity. */
export type ActivityEmail = ActivityPage["emails"][number];
