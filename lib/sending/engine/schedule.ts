import type { DbOrTx } from "../../../db/client";
import type { Clock } from "../../clock";
import { newId } from "../../ids";
import { newMessageId } from "../../mail/message-id";
import { crashPoint } from "../../jobs/crash-point";
import { type Claim, claimDue, releaseMailboxes } from "./claim";
import { commitSends } from "./commit";
import { decide, type MailboxDecision, type PassFacts, type PassPlan } from "./decide";
import { earlierEmails, firstEmailsToday, type PassRows, passRows, push, sendsByVariant } from "./reads";
import { knownCustomFields, subjectFor } from "./render";
import type { DueLead, Release, SendLead, SendOptions, Work } from "./types";
import { pickVariant } from "./variants";

/**
 * Mailboxes claimed per statement round when a pass may claim more, and how many such rounds run at
 * once. A large pass (5,000 mailboxes) is cut into chunks run on two connections, like two workers
 * would (SKIP LOCKED keeps them apart; a campaign's new-lead cap is re-counted under its lock):
 * Postgres works on one chunk while this process decides the other, instead of each waiting.
 */
const ROUND = 1000;
const LANES = 2;

/**
 * The scheduler: claims the mailboxes that may send now (leases, SKIP LOCKED), reads what the rules
 * need, decides (decide.ts, pure), and commits the chosen emails as SENDING (Message-ID fixed, lead
 * moved to its next step). A fixed number of statements per chunk of mailboxes. Mailboxes that get
 * nothing are released; the others stay leased until the sender records them.
 */
export async function scheduleDue(db: DbOrTx, clock: Clock, opts: SendOptions = {}): Promise<{ claimed: number; work: Work[] }> {
  const limit = opts.mailboxLimit ?? 1000;
  const size = opts.roundSize ?? ROUND;
  const rounds: Round[] = [];
  if (opts.mailboxIds || limit <= size) rounds.push(await scheduleRound(db, clock.now(), limit, opts.mailboxIds));
  else await Promise.all(Array.from({ length: LANES }, () => lane(db, clock, { limit, size }, rounds)));
  // Released only once every round has claimed: a mailbox released earlier could be claimed again
  // by a later round of the same pass.
  await releaseMailboxes(
    db,
    rounds.flatMap((r) => r.releases),
  );
  return { claimed: rounds.reduce((n, r) => n + r.claimed, 0), work: rounds.flatMap((r) => r.work) };
}

/** What one round claimed and committed, and the mailboxes it leaves to release (nothing to send, or a pick lost). */
interface Round {
  claimed: number;
  work: Work[];
  releases: Release[];
}

/** One lane: rounds of up to `size` mailboxes until the pass's limit is reached or a round comes back short. */
async function lane(db: DbOrTx, clock: Clock, pass: { limit: number; size: number }, rounds: Round[]): Promise<void> {
  const { limit, size } = pass;
  const asked = (k: number) => Math.min(size, limit - k * size);
  const drained = () => rounds.some((r, k) => r.claimed < asked(k));
  while (rounds.length * size < limit && !drained()) {
    const k = rounds.length;
    rounds[k] = { claimed: asked(k), work: [], releases: [] }; // taken: the other lane moves on to the next round
    rounds[k] = await scheduleRound(db, clock.now(), asked(k));
  }
}

/** One round of the scheduler over at most `limit` mailboxes (or exactly `only`). */
async function scheduleRound(db: DbOrTx, now: Date, limit: number, only?: string[]): Promise<Round> {
  if (only && only.length === 0) return { claimed: 0, work: [], releases: [] };
  const claim = await claimDue(db, now, limit, only);
  if (claim.mailboxIds.length === 0) return { claimed: 0, work: [], releases: [] };
  crashPoint("send:after-claim");
  const { facts, rows } = await readPass(db, claim, now);
  const plan = decide(facts);
  const work = await commitSends(db, plan.leads, await prepareWork(db, plan, rows, now), now);
  if (work.length) crashPoint("send:after-sending-commit");
  // Mailboxes with nothing to send, and those whose pick was lost (lead deleted, or changed since the read).
  const busy = new Set(work.map((w) => w.mailbox.id));
  const releases = plan.mailboxes.flatMap((d): Release[] =>
    d.kind === "release" ? [{ id: d.mailbox.id, at: d.until }] : busy.has(d.mailbox.id) ? [] : [{ id: d.mailbox.id, at: null }],
  );
  return { claimed: claim.mailboxIds.length, work, releases };
}

/** Everything decide needs besides the claim: one round of independent reads, then the new-lead counts if any cap. */
async function readPass(db: DbOrTx, claim: Claim, now: Date): Promise<{ facts: PassFacts; rows: PassRows }> {
  const rows = await passRows(db, claim.mailboxIds, claim.due);
  const capped = [...rows.campaigns.values()].filter((c) => c.dailyNewLeadCap !== null);
  const firstToday = await firstEmailsToday(db, capped, now);
  const dueBy = new Map<string, DueLead[]>();
  for (const d of claim.due) push(dueBy, d.mailboxId, d);
  const facts: PassFacts = {
    now,
    mailboxes: rows.mailboxes,
    sentToday: claim.sentToday,
    due: dueBy,
    campaigns: rows.campaigns,
    steps: rows.steps,
    isSuppressed: (ws, email) => rows.suppressed.has(`${ws}\u0000${email.toLowerCase()}`),
    firstToday,
  };
  return { facts, rows };
}

type Pick = Extract<MailboxDecision, { kind: "send" }>;

/**
 * The picked sends made whole: each step picks its variant independently (random, or Thompson
 * sampling on replies ÷ sends), follow-ups get their thread, custom-field names known to the campaign
 * are looked up once, and each email gets its id and Message-ID.
 */
async function prepareWork(db: DbOrTx, plan: PassPlan, rows: PassRows, now: Date): Promise<Work[]> {
  const picks = plan.mailboxes.filter((d): d is Pick => d.kind === "send");
  const optimised = picks
    .filter((p) => p.variants.length > 1 && p.campaign.abVariantOptimization)
    .flatMap((p) => p.variants.map((v) => v.id));
  const followUps = picks.filter((p) => p.lead.nextStepOrder > 0).map((p) => ({ campaignId: p.campaign.id, leadId: p.lead.leadId }));
  const [stats, earlier, known] = await Promise.all([
    sendsByVariant(db, [...new Set(optimised)]),
    earlierEmails(db, followUps),
    knownCustomFields(db, [...new Set(picks.map((p) => p.campaign.id))], rows.steps, now),
  ]);
  const work: Work[] = [];
  for (const p of picks) {
    const d = p.lead;
    const lead: SendLead = {
      id: d.leadId,
      email: d.email,
      firstName: d.firstName,
      lastName: d.lastName,
      companyName: d.companyName,
      companyDomain: d.companyDomain,
      jobTitle: d.jobTitle,
      phoneNumber: d.phoneNumber,
      timezone: d.timezone,
      customFields: d.customFields,
    };
    const step = pickVariant(p.variants, stats, p.campaign.abVariantOptimization);
    const before = earlier.get(`${p.campaign.id}\u0000${lead.id}`) ?? [];
    const knownFields = known.get(p.campaign.id) ?? [];
    const emailId = newId("eml");
    work.push({
      mailbox: p.mailbox,
      campaign: p.campaign,
      lead,
      step,
      steps: rows.steps.get(p.campaign.id) ?? [],
      due: p.lead,
      emailId,
      messageId: newMessageId(p.mailbox.email, emailId.slice(4)),
      subject: subjectFor(step, lead, p.mailbox, before, knownFields),
      references: before.map((e) => e.messageId),
      knownCustomFields: knownFields,
      files: rows.files.get(step.id) ?? [],
    });
  }
  return work;
}
