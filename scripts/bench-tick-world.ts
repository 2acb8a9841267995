/**
 * The scheduler tick's world, shared by `npm run bench:send` (part 2) and `npm run bench:scale:scheduler`:
 * mailboxes in ACTIVE campaigns (window 9–17 Mon–Fri in the lead's zone), 20 leads per mailbox in 24
 * timezones and five days of history, seeded with generate_series (the analytics rollups follow from
 * the emails' statement triggers, in SQL); the reset between judged ticks; today's emails for a
 * mid-day tick; and the CPU of this process and its Postgres from /proc.
 */
import { readdirSync, readFileSync } from "node:fs";
import type postgres from "postgres";

/** 24 zones, one per UTC offset (November): at 14:00 UTC, New York … Athens (8 of them) are in 9–17. */
export const ZONES = [
  "Pacific/Pago_Pago",
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Halifax",
  "America/Sao_Paulo",
  "Atlantic/South_Georgia",
  "Atlantic/Azores",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Athens",
  "Europe/Moscow",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Brisbane",
  "Pacific/Noumea",
  "Pacific/Auckland",
];

/** The tick's UTC day (its clock is a Tuesday 14:00). */
export const TICK_DAY = "2026-11-03T00:00:00Z";
/** The tick's clock: that Tuesday, 14:00 UTC. */
export const TICK_AT = new Date(new Date(TICK_DAY).getTime() + 14 * 3_600_000);

/** The one step every bench campaign sends. */
export const STEP = {
  subject: "Quick question, {{firstName}}",
  bodyTemplate:
    "Hi {{firstName}},\n\nI noticed {{companyName}} has been growing its team, and wondered how you handle outbound today. " +
    "We help teams like yours book more meetings without hiring more reps.\n\nWould a 15-minute call next week make sense?\n\nBest,\n{{senderName}}",
};

/** Each zone's next_send_at for a reset: the window's opening, or null (due now). */
export type ZoneOpens = { zone: string; at: string | null }[];

export interface TickWorld {
  workspaceId: string;
  domainId: string;
  /** The mailboxes' encrypted SMTP/IMAP password. */
  passwordEnc: string;
  /** Where the mailboxes send (the sink; the tick itself opens no connection). */
  host: string;
  port: number;
  mailboxes: number;
  leads: number;
  campaigns: number;
  gapMinutes: number;
  /** Campaign emails of history per mailbox, 8 a day before the tick's day. */
  historyPerMailbox: number;
}

/**
 * Mailbox i is mbx_tick_i in campaign cmp_tick_(i % campaigns); lead i belongs to mailbox i % mailboxes
 * and its zone walks the 24 zones, so each mailbox has 20 consecutive ones. History: each mailbox's
 * campaign emails of the days before, 8 a day (9:00–16:00 UTC), to earlier leads (deleted since: lead_id
 * null): the tick reads today's count through emails' (mailbox, created) index with statistics of a
 * table that has rows. One transaction.
 */
export async function seedTickWorld(pg: postgres.Sql, w: TickWorld): Promise<void> {
  const { workspaceId: ws, domainId, passwordEnc: pwd, host, port } = w;
  const [M, L, C] = [w.mailboxes, w.leads, w.campaigns];
  await pg.begin(async (tx) => {
    await tx`insert into campaigns (id, workspace_id, name, status, min_gap_minutes)
      select 'cmp_tick_' || c, ${ws}, 'Tick ' || c, 'ACTIVE', ${w.gapMinutes} from generate_series(0, ${C - 1}) c`;
    await tx`insert into campaign_steps (id, workspace_id, campaign_id, step_order, variant_group, subject, body_template)
      select 'stp_tick_' || c, ${ws}, 'cmp_tick_' || c, 0, '', ${STEP.subject}, ${STEP.bodyTemplate} from generate_series(0, ${C - 1}) c`;
    await tx`insert into mailboxes (id, workspace_id, domain_id, email, sender_name, provider, esp_class, smtp_host, smtp_port, smtp_security, smtp_username,
        smtp_password_enc, imap_host, imap_port, imap_security, imap_username, imap_password_enc, daily_send_cap, last_checked_at)
      select 'mbx_tick_' || i, ${ws}, ${domainId}, 'sender' || i || '@tick.bench.test', 'Sender ' || i, 'CUSTOM', 'OTHER', ${host}, ${port}, 'NONE',
        'sender' || i || '@tick.bench.test', ${pwd}, ${host}, 1, 'NONE', 'sender' || i || '@tick.bench.test', ${pwd}, 50, now()
      from generate_series(0, ${M - 1}) i`;
    await tx`insert into campaign_mailboxes (workspace_id, campaign_id, mailbox_id)
      select ${ws}, 'cmp_tick_' || (i % ${C}), 'mbx_tick_' || i from generate_series(0, ${M - 1}) i`;
    await tx`insert into leads (id, workspace_id, email, first_name, last_name, company_name, timezone)
      select 'lead_tick_' || i, ${ws}, 'lead' || i || '@co' || (i % 997) || '.tick.test', 'First' || i, 'Last' || i, 'Company ' || (i % 997),
        (${ZONES}::text[])[1 + (((i % ${M}) * 7 + i / ${M}) % 24)]
      from generate_series(0, ${L - 1}) i`;
    await tx`insert into campaign_leads (workspace_id, campaign_id, lead_id, mailbox_id)
      select ${ws}, 'cmp_tick_' || ((i % ${M}) % ${C}), 'lead_tick_' || i, 'mbx_tick_' || (i % ${M})
      from generate_series(0, ${L - 1}) i order by i`;
    await tx`insert into emails (id, workspace_id, mailbox_id, lead_email, campaign_id, step_id, step_order, message_id, subject, status, created_at, sent_at)
      select 'eml_hist_' || i, ${ws}, 'mbx_tick_' || (i % ${M}), 'past' || i || '@co' || (i % 997) || '.tick.test',
        'cmp_tick_' || ((i % ${M}) % ${C}), 'stp_tick_' || ((i % ${M}) % ${C}), 0, '<hist' || i || '@tick.bench.test>', 'Earlier', 'SENT', h.t, h.t
      from generate_series(0, ${M * w.historyPerMailbox - 1}) i
      cross join lateral (select ${TICK_DAY}::timestamptz + interval '9 hours' - (1 + (i / ${M}) / 8) * interval '1 day'
        + ((i / ${M}) % 8) * interval '1 hour' as t) h`;
  });
}

/**
 * Puts the tick's world back where a judged tick starts: no emails today (the history stays), mailboxes free and paced long ago,
 * every lead on its first step and due at `opens[zone]` (null: due now). Then VACUUM ANALYZE, so each
 * run starts from the same tables.
 */
export async function resetTickWorld(pg: postgres.Sql, ws: string, opens: ZoneOpens): Promise<void> {
  await pg`delete from emails where workspace_id = ${ws} and created_at >= ${TICK_DAY}::timestamptz`;
  await pg`update mailboxes set send_lease_until = null, next_send_at = null where workspace_id = ${ws}`;
  await pg`update campaign_leads cl set status = 'ACTIVE', next_step_order = 0, failed_attempts = 0, first_emailed_at = null,
      last_emailed_at = null, next_send_at = o.at
    from leads l, jsonb_to_recordset(${JSON.stringify(opens)}::text::jsonb) as o(zone text, at timestamptz)
    where cl.workspace_id = ${ws} and l.id = cl.lead_id and o.zone = l.timezone`;
  await pg`vacuum analyze emails, mailboxes, campaign_leads`;
}

/** Today's sends before a mid-day tick: each mailbox's first `perMailbox` emails of the day, 9:00 onwards, hourly, to earlier leads. */
export async function insertTodayEmails(
  pg: postgres.Sql,
  w: Pick<TickWorld, "workspaceId" | "mailboxes" | "campaigns">,
  perMailbox: number,
) {
  const [ws, M, C] = [w.workspaceId, w.mailboxes, w.campaigns];
  await pg`insert into emails (id, workspace_id, mailbox_id, lead_email, campaign_id, step_id, step_order, message_id, subject, status, created_at, sent_at)
    select 'eml_today_' || i, ${ws}, 'mbx_tick_' || (i % ${M}), 'today' || i || '@co' || (i % 997) || '.tick.test',
      'cmp_tick_' || ((i % ${M}) % ${C}), 'stp_tick_' || ((i % ${M}) % ${C}), 0,
      '<today' || i || '@tick.bench.test>', 'Earlier today', 'SENT', h.t, h.t
    from generate_series(0, ${M * perMailbox - 1}) i
    cross join lateral (select ${TICK_DAY}::timestamptz + interval '9 hours' + (i / ${M}) * interval '1 hour' as t) h`;
}

/** What the sender would do between mid-day ticks: the tick's SENDING emails become SENT, the leases end. */
export async function afterMidDayTick(pg: postgres.Sql, ws: string): Promise<void> {
  await pg`update emails set status = 'SENT', sent_at = created_at where workspace_id = ${ws} and status = 'SENDING'`;
  await pg`update mailboxes set send_lease_until = null where workspace_id = ${ws}`;
}

// ---------------------------------------------------------------------------------------------
// CPU of this process and of the Postgres it started (/proc)

/** CPU time (ms) of this process, of the Postgres processes it started and of its other children (the sink). */
export interface ProcessCpu {
  self: number;
  postgres: number;
  sink: number;
}

const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux

/**
 * CPU so far of this process and its descendants, by kind, from /proc (Linux): on 2 cores the
 * pipeline's Postgres and the sink compete with this process, so their CPU per email is part of the
 * picture (the raw side has no Postgres). NaN where /proc cannot be read.
 */
export function processCpu(): ProcessCpu {
  const u = process.cpuUsage();
  const self = (u.user + u.system) / 1000;
  try {
    const children = new Map<number, number[]>();
    const stat = new Map<number, { name: string; ticks: number }>();
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      let text: string;
      try {
        text = readFileSync(`/proc/${d}/stat`, "utf8");
      } catch {
        continue; // gone since the listing
      }
      const close = text.lastIndexOf(")");
      const f = text.slice(close + 2).split(" "); // state, ppid, … utime (12th), stime (13th) after the name
      const pid = Number(d);
      const ppid = Number(f[1]);
      stat.set(pid, { name: text.slice(text.indexOf("(") + 1, close), ticks: Number(f[11]) + Number(f[12]) });
      const list = children.get(ppid) ?? [];
      list.push(pid);
      children.set(ppid, list);
    }
    const out: ProcessCpu = { self, postgres: 0, sink: 0 };
    const walk = (pid: number) => {
      for (const c of children.get(pid) ?? []) {
        const p = stat.get(c);
        if (p) out[p.name.startsWith("postgres") ? "postgres" : "sink"] += p.ticks * CLOCK_TICK_MS;
        walk(c);
      }
    };
    walk(process.pid);
    return out;
  } catch {
    return { self, postgres: NaN, sink: NaN };
  }
}

export const cpuSince = (a: ProcessCpu, b: ProcessCpu): ProcessCpu => ({
  self: b.self - a.self,
  postgres: b.postgres - a.postgres,
  sink: b.sink - a.sink,
});
export const addCpu = (a: ProcessCpu, b: ProcessCpu): ProcessCpu => ({
  self: a.self + b.self,
  postgres: a.postgres + b.postgres,
  sink: a.sink + b.sink,
});
export const cpuPer = (c: ProcessCpu, n: number): ProcessCpu => ({
  self: (c.self * 1000) / n,
  postgres: (c.postgres * 1000) / n,
  sink: (c.sink * 1000) / n,
});
