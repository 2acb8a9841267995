/**
 * The stats endpoints' response shapes, taken from the functions that build them (type-only imports:
 * nothing of lib/ reaches the browser bundle).
 */
import type { campaignActivity, getCampaignStats, getCampaignTimeseries } from "@/lib/campaigns/stats-views";
import type { forecastSchedule } from "@/lib/campaigns/schedule";

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type CampaignStatsView = Result<typeof getCampaignStats>;
export type VariantResult = CampaignStatsView["variants"][number];
export type Timeseries = Result<typeof getCampaignTimeseries>;
export type DayCounts = Timeseries["series"][number];
export type Schedule = Result<typeof forecastSchedule>;
export type ScheduleDay = Schedule["totals"][number];
export type ScheduleMailbox = Schedule["mailboxes"][number];
export type UpcomingSend = Schedule["upcoming"][number];
export type EmailStatus = "SENDING" | "SENT" | "BOUNCED" | "FAILED";

/**
 * One email of GET /campaigns/<id>/activity. The route reads raw rows (untyped), so the shape is
 * written out here; the keys are checked against the route's below.
 */
export interface ActivityEmail {
  id: string;
  leadId: string | null;
  leadEmail: string;
  stepOrder: number;
  variantGroup: string | null;
  mailboxEmail: string;
  subject: string | null;
  status: EmailStatus;
  bounceType: "HARD" | "SOFT" | null;
  /** An SMTP reply code or enhanced status code ("550", "5.1.1"). */
  smtpCode: string | null;
  smtpResponse: string | null;
  createdAt: string | null;
  sentAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
}
type RouteKeys = keyof Result<typeof campaignActivity>["rows"][number];
type Expect<T extends true> = T;
/** Fails to compile when the route adds or drops a field that ActivityEmail does not have. */
export type ActivityShapeCheck = Expect<[RouteKeys, keyof ActivityEmail] extends [keyof ActivityEmail, RouteKeys] ? true : false>;

/** GET /campaigns/<id>/activity wraps the rows in the paging envelope (spec 8 form 1). */
export interface ActivityPage {
  emails: ActivityEmail[];
  page: number;
  limit: number;
  total: number;
}
