import { sql } from "drizzle-orm";
import { recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { type OooCampaign, type OooLead, resumeAt } from "../../sending/resume";
import { zoneFor } from "../../sending/window";
import { findReturnDate } from "../return-date";
import type { PreparedReply } from "./intent";
import type { Match } from "./match";

/**
 * Out-of-office resume. An OUT_OF_OFFICE reply (by the rules or the AI provider: a person's reply that
 * also mentions a holiday is classified by what it asks, never as out of office) does not stop the lead
 * when its campaign has oooResume on and stopOnAutoReply off: the lead pauses until the return date
 * the reply names — the first open window on or after that day, in the lead's zone, on an allowed day
 * that is no holiday or blackout date — or, with no date found, for oooDefaultPauseDays. A return date
 * already past pauses nothing. The date and the sentence it was read from are kept on the reply.
 */

/** Whether an OUT_OF_OFFICE reply pauses the lead in this campaign instead of stopping it. */
export const pausesInstead = (c: Pick<OooCampaign, "oooResume" | "stopOnAutoReply">) => c.oooResume && !c.stopOnAutoReply;

/** A lead's sequence to pause for an out-of-office reply (applied only if the reply is written and the lead still ACTIVE). */
export interface PauseRow {
  replyId: string;
  campaignId: string;
  leadId: string;
  until: string;
}

/** The return date found in the reply, and the pause it means in each campaign it matched. */
export interface OooPlan {
  returnDate: { date: string; text: string } | null;
  pause: PauseRow | null;
}

const FACTS = {
  campaignId: "text",
  leadId: "text",
} as const;

type FactsRow = OooCampaign & OooLead & { campaignId: string; leadId: string; [k: string]: unknown };

/** The campaign settings and lead zone of each matched out-of-office reply, in one read. */
async function readFacts(db: DbOrTx, pairs: { campaignId: string; leadId: string }[]): Promise<Map<string, FactsRow>> {
  const p = recordset("p", FACTS, pairs);
  const rows = await selectRows<FactsRow>(
    db,
    sql`select distinct ${p.col("campaignId")} as "campaignId", ${p.col("leadId")} as "leadId", l.timezone, l.custom_fields as "customFields",
          c.send_window_start_hour as "sendWindowStartHour", c.send_window_end_hour as "sendWindowEndHour",
          c.send_days_of_week as "sendDaysOfWeek", c.default_timezone as "defaultTimezone",
          c.skip_holidays as "skipHolidays", c.blackout_dates as "blackoutDates",
          c.ooo_resume as "oooResume", c.ooo_default_pause_days as "oooDefaultPauseDays", c.stop_on_auto_reply as "stopOnAutoReply"
        from ${p.from} join campaigns c on c.id = ${p.col("campaignId")} join leads l on l.id = ${p.col("leadId")}`,
  );
  return new Map(rows.map((r) => [`${r.campaignId}|${r.leadId}`, r]));
}

const domainOf = (address: string | undefined) => (address ? address.slice(address.lastIndexOf("@") + 1) : undefined);

/** The header that names the reply's language, if any. */
function localeOf(p: PreparedReply): string | undefined {
  const v = p.parsed.headers?.get("content-language");
  return typeof v === "string" ? v.split(",")[0].trim() : undefined;
}

/**
 * For each OUT_OF_OFFICE reply of a batch (by index): its return date (read in the lead's zone when it
 * is matched) and, matched to a campaign that resumes, the pause. Other replies get nothing.
 */
export async function planOutOfOffice(
  db: DbOrTx,
  items: PreparedReply[],
  ids: string[],
  who: (Match | undefined)[],
  receivedAt: (i: number) => Date,
): Promise<Map<number, OooPlan>> {
  const out = new Map<number, OooPlan>();
  const ooo = items.flatMap((p, i) => (p.intent === "OUT_OF_OFFICE" ? [i] : []));
  if (ooo.length === 0) return out;
  const pairs = ooo.flatMap((i) => {
    const w = who[i];
    return w?.campaignId ? [{ campaignId: w.campaignId, leadId: w.leadId }] : [];
  });
  const facts = pairs.length ? await readFacts(db, pairs) : new Map<string, FactsRow>();
  for (const i of ooo) {
    const w = who[i];
    const f = w?.campaignId ? facts.get(`${w.campaignId}|${w.leadId}`) : undefined;
    const at = receivedAt(i);
    const found = findReturnDate(items[i].text, {
      receivedAt: at,
      locale: localeOf(items[i]),
      timeZone: f ? (zoneFor(f, f.timezone) ?? undefined) : undefined,
      senderDomain: domainOf(items[i].from?.address),
    });
    let pause: PauseRow | null = null;
    if (w?.campaignId && f && pausesInstead(f)) {
      const until = resumeAt(f, f, found?.date ?? null, at);
      if (until) pause = { replyId: ids[i], campaignId: w.campaignId, leadId: w.leadId, until: until.toISOString() };
    }
    out.set(i, { returnDate: found, pause });
  }
  return out;
}
