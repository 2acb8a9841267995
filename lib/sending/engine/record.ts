import { and, eq, type SQL, sql } from "drizzle-orm";
import { anyOf, recordset } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignLeads, campaigns, emails, events, mailboxes } from "../../../db/schema";
import { systemCtx } from "../../ctx";
import type { Clock } from "../../clock";
import { emitEvent } from "../../events/emit";
import { crashPoint } from "../../jobs/crash-point";
import { newEventId } from "../../ids";
import { GroupCommit } from "../../jobs/group-commit";
import type { Logger } from "../../log";
import { addSuppressions } from "../../suppressions/suppressions";
import { checkBounceSpike } from "./bounce-spike";
import { releaseStatement } from "./claim";
import { afterFailure } from "./decide";
import { assign, at, withSteps } from "./sql";
import type { Outcome, Release, SentBody, Work } from "./types";

/**
 * Recording outcomes. SENT ones and mailbox releases go in group commits (lib/jobs/group-commit.ts):
 * whatever finished while the previous group was written goes in the next, and a group is ONE
 * statement — rows SENT with the body as sent, email.sent events, the campaigns' first_sent_at,
 * retry counts reset, mailboxes released with their gap — atomic without BEGIN/COMMIT. A bounce or a
 * refusal is recorded on its own (rare, and each has its own consequences).
 */

/** An email SENT (and its mailbox released with its gap), or a mailbox released after a refusal. */
type Item = { kind: "sent"; work: Work; at: Date; body: SentBody; release: Release } | { kind: "release"; release: Release };
type Sent = Extract<Item, { kind: "sent" }>;

/** Rows SENT with the body as sent (found through the primary key: `matches`). */
function markSent(sent: Sent[]): SQL {
  const v = recordset(
    "sent",
    { id: emails.id, at: emails.sentAt, text: emails.bodyText, html: emails.bodyHtml },
    sent.map((s) => ({ id: s.work.emailId, at: s.at, text: s.body.text, html: s.body.html })),
  );
  return sql`update ${emails} set ${assign([
    [emails.status, sql`'SENT'`],
    [emails.sentAt, v.col("at")],
    [emails.bodyText, v.col("text")],
    [emails.bodyHtml, v.col("html")],
  ])} from ${v.from} where ${v.matches(emails.id, "id")}`;
}

/** One email.sent event per email (the outbox; the webhook job delivers them). */
function sentEvents(sent: Sent[]): SQL {
  const v = recordset(
    "evt",
    { id: events.id, workspaceId: events.workspaceId, data: events.data, at: events.createdAt },
    sent.map(({ work: w, at }) => ({
      id: newEventId(),
      workspaceId: w.mailbox.workspaceId,
      data: {
        sendEventId: w.emailId,
        leadEmail: w.lead.email,
        mailboxEmail: w.mailbox.email,
        campaignId: w.campaign.id,
        stepOrder: w.step.stepOrder,
      },
      at,
    })),
  );
  const e = events;
  return sql`insert into ${e} (${sql.join(
    [e.id, e.workspaceId, e.event, e.data, e.createdAt].map((c) => sql.identifier(c.name)),
    sql`, `,
  )})
    select ${v.col("id")}, ${v.col("workspaceId")}, 'email.sent', ${v.col("data")}, ${v.col("at")} from ${v.from}`;
}

/**
 * The outcomes of one pass. Items are handed to the group commit in batches of at least `minGroup`
 * (the sender's concurrency: about one wave of conversations), and whatever is left when the pass
 * ends: a group per finished send would spend a statement on each of the first few, while the
 * database's CPU is what the SMTP conversations in flight need.
 */
export class Recorder {
  private readonly group: GroupCommit<Item[]>;
  private held: Item[] = [];
  /** Campaigns whose first_sent_at this pass has written (only the first send writes the row). */
  private readonly firstSentWritten = new Set<string>();

  constructor(
    private readonly db: DbOrTx,
    log: Logger,
    private readonly minGroup = 1,
  ) {
    this.group = new GroupCommit<Item[]>(
      (batches) => this.write(batches.flat()),
      (error, batches) => log.error("send: recording outcomes failed", { error, emails: batches.flat().length }),
    );
  }

  /** SENT at `at`; its mailbox's next send no earlier than `nextSendAt` (pacing). */
  sent(work: Work, at: Date, body: SentBody, nextSendAt: Date): void {
    this.hold({ kind: "sent", work, at, body, release: { id: work.mailbox.id, at: nextSendAt } });
  }

  release(id: string, at: Date): void {
    this.hold({ kind: "release", release: { id, at } });
  }

  /** Writes what is held and waits until everything is written. */
  flush(): Promise<void> {
    if (this.held.length) this.group.add(this.held.splice(0));
    return this.group.flush();
  }

  private hold(item: Item): void {
    this.held.push(item);
    if (this.held.length >= this.minGroup) this.group.add(this.held.splice(0));
  }

  private async write(items: Item[]): Promise<void> {
    const sent = items.filter((i): i is Sent => i.kind === "sent");
    const releases = items.map((i) => i.release);
    const steps: [string, SQL][] = [];
    if (sent.length) {
      steps.push(["sent", markSent(sent)], ["events", sentEvents(sent)]);
      const first = [
        ...new Set(
          sent.filter(({ work: w }) => !w.campaign.firstSentAt && !this.firstSentWritten.has(w.campaign.id)).map((s) => s.work.campaign.id),
        ),
      ];
      if (first.length) {
        steps.push([
          "first",
          sql`update ${campaigns} set ${assign([[campaigns.firstSentAt, at(sent[0].at)]])}
            where ${campaigns.id} = ${anyOf(first)} and ${campaigns.firstSentAt} is null`,
        ]);
        for (const id of first) this.firstSentWritten.add(id);
      }
      const retried = sent
        .filter((s) => s.work.due.failedAttempts > 0)
        .map((s) => ({ campaignId: s.work.campaign.id, leadId: s.work.lead.id }));
      if (retried.length) {
        const v = recordset("retried", { campaignId: campaignLeads.campaignId, leadId: campaignLeads.leadId }, retried);
        steps.push([
          "reset",
          sql`update ${campaignLeads} set ${assign([[campaignLeads.failedAttempts, 0]])} from ${v.from}
            where ${campaignLeads.campaignId} = ${v.col("campaignId")} and ${campaignLeads.leadId} = ${v.col("leadId")}`,
        ]);
      }
    }
    if (releases.length) steps.push(["released", releaseStatement(releases)]);
    if (!steps.length) return;
    const written = this.db.execute(withSteps(steps, sql`select 1`)).then(() => undefined); // sent now, awaited below
    if (sent.length) crashPoint("send:during-record", 1);
    await written;
  }
}

/** A bounce: the row BOUNCED, email.bounced; a hard one suppresses the address and stops its sequences. */
async function recordBounce(tx: DbOrTx, clock: Clock, w: Work, o: Extract<Outcome, { status: "BOUNCED" }>, done: Date, body: SentBody) {
  const { mailbox: m, campaign: c, lead } = w;
  await tx
    .update(emails)
    .set({
      status: "BOUNCED",
      bounceType: o.bounceType,
      smtpCode: o.code,
      smtpResponse: o.reason,
      sentAt: done,
      bodyText: body.text,
      bodyHtml: body.html,
    })
    .where(eq(emails.id, w.emailId));
  if (!c.firstSentAt)
    await tx
      .update(campaigns)
      .set({ firstSentAt: done })
      .where(and(eq(campaigns.id, c.id), sql`${campaigns.firstSentAt} is null`));
  await emitEvent(tx, m.workspaceId, "email.bounced", { sendEventId: w.emailId, leadEmail: lead.email, bounceType: o.bounceType }, done);
  if (o.bounceType === "HARD") {
    // A hard-bounced address is suppressed and gets nothing more from any campaign.
    await addSuppressions(systemCtx(m.workspaceId, { db: tx, clock }), { emails: [lead.email] }, "hard_bounce");
    await tx.update(campaignLeads).set({ status: "BOUNCED", nextSendAt: null }).where(eq(campaignLeads.leadId, lead.id));
  } else if (w.due.failedAttempts > 0) {
    await tx
      .update(campaignLeads)
      .set({ failedAttempts: 0 })
      .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, lead.id)));
  }
  await checkBounceSpike(tx, m, done);
}

/** Refused at send time without being a bounce: the same step is tried again later, with backoff. */
async function recordFailure(tx: DbOrTx, w: Work, o: Extract<Outcome, { status: "FAILED" }>, done: Date) {
  const { mailbox: m, campaign: c, lead, step } = w;
  await tx.update(emails).set({ status: "FAILED", smtpCode: o.code, smtpResponse: o.reason }).where(eq(emails.id, w.emailId));
  const next = afterFailure(w.due.failedAttempts, done);
  await tx
    .update(campaignLeads)
    .set({
      nextStepOrder: step.stepOrder,
      status: next.status,
      failedAttempts: next.failedAttempts,
      nextSendAt: next.nextSendAt,
      firstEmailedAt: w.due.firstEmailedAt ? new Date(w.due.firstEmailedAt) : null,
      lastEmailedAt: w.due.lastEmailedAt ? new Date(w.due.lastEmailedAt) : null,
    })
    .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, lead.id)));
  if (!o.auth) return;
  // A refused login stops the mailbox at once (LOGIN_FAILING), not at the next health check.
  const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
  if (cur && !cur.loginFailingSince) {
    await tx.update(mailboxes).set({ loginFailingSince: done, loginError: o.reason }).where(eq(mailboxes.id, m.id));
    await emitEvent(
      tx,
      m.workspaceId,
      "mailbox.disconnected",
      { mailboxId: m.id, mailboxEmail: m.email, error: o.reason, disconnectedAt: done.toISOString() },
      done,
    );
  }
}

/** A bounce or a refusal, recorded on its own in one transaction. */
export async function recordRefusal(
  db: DbOrTx,
  clock: Clock,
  w: Work,
  outcome: Exclude<Outcome, { status: "SENT" }>,
  done: Date,
  body: SentBody,
) {
  await db.transaction(async (tx) => {
    if (outcome.status === "BOUNCED") await recordBounce(tx, clock, w, outcome, done, body);
    else await recordFailure(tx, w, outcome, done);
  });
}
