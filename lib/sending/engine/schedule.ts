import type { DbOrTx } from "../../../db/client";
import type { Clock } from "../../clock";
import { newId } from "../../ids";
import { newMessageId } from "../../mail/message-id";
import { crashPoint } from "../../jobs/crash-point";
import { type Claim, claimDue, nextDueLeads, releaseMailboxes } from "./claim";
import { commitSends } from "./commit";
import { decide, type MailboxDecision, type PassFacts, type PassPlan } from "./decide";
import {
  addDueRows,
  CampaignReads,
  type EarlierEmail,
  earlierEmails,
  firstEmailsToday,
  type PassRows,
  passRows,
  push,
  sendsByVariant,
  subsequenceThreading,
} from "./reads";
import { knownCustomFields, subjectFor } from "./render";
import { trackingBases } from "../tracking-base";
import type { DueLead, Release, SendLead, SendOptions, Step, Work } from "./types";
import { pickVariant } from "./variants";

/**
 * Mailboxes claimed per statement round when a pass may claim more, and how many such rounds run at
 * once. A large pass (5,000 mailboxes) is cut into chunks run on three connections, like three workers
 * would (SKIP LOCKED keeps them apart; a campaign's new-lead cap is re-counted under its lock):
 * Postgres works on some chunks while this process decides another, instead of each waiting. Three
 * lanes rather than two: on 2 cores the bench's tick was 7–10 % (steady state) and ~30 % (all zones
 * due) shorter, A/B'd in one process.
 */
const ROUND = 1000;
const LANES = 3;

/**
 * The scheduler: claims the mailboxes that may send now (leases, SKIP LOCKED), reads what the rules
 * need, decides (decide.ts, pure), and commits the chosen emails as SENDING (Message-ID fixed, lead
 * moved to its next step). A fixed number of statements per chunk of mailboxes. Mailboxes that get
 * nothing are released; the others stay leased until the sender records them.
 */
export async function scheduleDue(db: DbOrTx, clock: Clock, opts: SendOptions = {}): Promise<{ claimed: number; work: Work[] }> {
  const limit = opts.mailboxLimit ?? 1000;
  const size = roundSize(limit, opts.roundSize ?? ROUND);
  if (opts.mailboxIds || limit <= size) {
    const round = await scheduleRound(db, clock.now(), limit, { only: opts.mailboxIds });
    await releaseMailboxes(db, round.releases);
    return { claimed: round.claimed, work: round.work };
  }
  const pass = new Pass(db, limit, size);
  await Promise.all(Array.from({ length: LANES }, () => lane(db, clock, pass)));
  pass.settle();
  await Promise.all(pass.releasing);
  return { claimed: pass.rounds.reduce((n, r) => n + r.claimed, 0), work: pass.rounds.flatMap((r) => r.work) };
}

/**
 * The rounds' size: at most `max`, cut evenly so that every lane runs the same number of rounds (5,000
 * mailboxes in rounds of 1,000 on two lanes would be 3 rounds on one lane and 2 on the other, the pass
 * waiting on the longer lane): on three lanes 6 rounds of 834, 2 per lane.
 */
function roundSize(limit: number, max: number): number {
  if (limit <= max) return max;
  const rounds = LANES * Math.ceil(limit / (LANES * max));
  return Math.ceil(limit / rounds);
}

/** What one round claimed and committed, and the mailboxes it leaves to release (nothing to send, or a pick lost). */
interface Round {
  claimed: number;
  work: Work[];
  releases: Release[];
}

/**
 * A pass cut into rounds. A round's mailboxes are released once every claim of the pass has returned
 * (a mailbox released earlier could be claimed again by a later round of the same pass), and no later:
 * the lane that finished first releases its rounds while the other is still working, instead of one
 * release of every round at the end.
 */
class Pass {
  readonly rounds: Round[] = [];
  readonly releasing: Promise<void>[] = [];
  /** Campaigns, steps and step files, read once for the whole pass. */
  readonly shared: CampaignReads;
  /** Claims sent and not yet returned. */
  private claiming = 0;
  private claimedAll!: () => void;
  private readonly allClaimed = new Promise<void>((resolve) => {
    this.claimedAll = resolve;
  });
  constructor(
    private readonly db: DbOrTx,
    readonly limit: number,
    readonly size: number,
  ) {
    this.shared = new CampaignReads(db);
  }
  asked(k: number): number {
    return Math.min(this.size, this.limit - k * this.size);
  }
  /** No round is left to take: the limit is reached, or a claim came back short. */
  private finished(): boolean {
    return this.rounds.length * this.size >= this.limit || this.rounds.some((r, k) => r.claimed < this.asked(k));
  }
  /** The next round's index, taken (the other lane moves on to the one after), or null when none is left. */
  take(): number | null {
    if (this.finished()) return null;
    const k = this.rounds.length;
    this.rounds[k] = { claimed: this.asked(k), work: [], releases: [] };
    this.claiming++;
    return k;
  }
  claimed(k: number, n: number): void {
    this.rounds[k].claimed = n;
    this.claiming--;
    this.settle();
  }
  settle(): void {
    if (this.claiming === 0 && this.finished()) this.claimedAll();
  }
  done(k: number, round: Round): void {
    this.rounds[k] = round;
    if (round.releases.length === 0) return;
    const release = this.allClaimed.then(() => releaseMailboxes(this.db, round.releases));
    release.catch(() => {}); // awaited by scheduleDue; not an unhandled rejection when another round failed first
    this.releasing.push(release);
  }
}

/** One lane: rounds of up to `size` mailboxes until the pass's limit is reached or a round comes back short. */
async function lane(db: DbOrTx, clock: Clock, pass: Pass): Promise<void> {
  for (let k = pass.take(); k !== null; k = pass.take()) {
    const round = k;
    pass.done(
      round,
      await scheduleRound(db, clock.now(), pass.asked(round), { claimed: (n) => pass.claimed(round, n), shared: pass.shared }),
    );
  }
}

interface RoundOptions {
  /** Exactly these mailboxes. */
  only?: string[];
  /** Told when the round's claim returns. */
  claimed?: (n: number) => void;
  /** The pass's campaign-wide reads. */
  shared?: CampaignReads;
}

/** One round of the scheduler over at most `limit` mailboxes (or exactly `only`). */
async function scheduleRound(db: DbOrTx, now: Date, limit: number, o: RoundOptions = {}): Promise<Round> {
  if (o.only && o.only.length === 0) return { claimed: 0, work: [], releases: [] };
  const claim = await claimDue(db, now, limit, o.only);
  o.claimed?.(claim.mailboxIds.length);
  if (claim.mailboxIds.length === 0) return { claimed: 0, work: [], releases: [] };
  crashPoint("send:after-claim");
  const shared = o.shared ?? new CampaignReads(db);
  const { facts, rows } = await readPass(db, claim, now, shared);
  const plan = await decideRound(db, facts, rows, shared);
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
async function readPass(db: DbOrTx, claim: Claim, now: Date, shared: CampaignReads): Promise<{ facts: PassFacts; rows: PassRows }> {
  const rows = await passRows(db, claim.mailboxIds, claim.due, shared);
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

/**
 * The round's plan, with a second look: the claim read each mailbox's first due lead, and a mailbox
 * whose first is not sent has its next due leads read (claim.ts nextDueLeads, with their campaigns,
 * steps, files and suppressions) and the round is decided again with them. decide is pure and takes
 * each mailbox's leads in order, so the plan is the one a claim of DUE_PER_MAILBOX leads per mailbox
 * gives. Repeated while a mailbox not yet looked at twice is left without a send (a lead sent on a
 * second look can take a campaign's last new-lead place from a later mailbox's first).
 */
async function decideRound(db: DbOrTx, first: PassFacts, rows: PassRows, shared: CampaignReads): Promise<PassPlan> {
  let facts = first;
  const looked = new Set<string>();
  for (;;) {
    const plan = decide(facts);
    const unsent = plan.mailboxes.flatMap((d) =>
      d.kind === "release" && d.reason === "nothing-sendable" && !looked.has(d.mailbox.id)
        ? (facts.due.get(d.mailbox.id) ?? []).slice(0, 1)
        : [],
    );
    for (const d of unsent) looked.add(d.mailboxId);
    const more = await nextDueLeads(db, facts.now, unsent);
    if (more.length === 0) return plan;
    await addDueRows(db, rows, more, shared);
    const known = new Set(facts.firstToday.keys());
    const capped = [...rows.campaigns.values()].filter((c) => c.dailyNewLeadCap !== null && !known.has(c.id));
    const due = new Map([...facts.due].map(([id, list]) => [id, [...list]]));
    for (const d of more) push(due, d.mailboxId, d);
    facts = { ...facts, due, firstToday: new Map([...facts.firstToday, ...(await firstEmailsToday(db, capped, facts.now))]) };
  }
}

type Pick = Extract<MailboxDecision, { kind: "send" }>;

/** The emails a send threads on: all the lead's earlier ones, or only its subsequence's when that starts a thread of its own. */
function threadOf(earlier: EarlierEmail[], subsequenceId: string | null, threading: Map<string, "same" | "new">, steps: Step[] = []) {
  if (!subsequenceId || threading.get(subsequenceId) !== "new") return earlier;
  const own = new Set(steps.filter((s) => s.subsequenceId === subsequenceId).map((s) => s.id));
  return earlier.filter((e) => e.stepId !== null && own.has(e.stepId));
}

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
  const followUps = picks
    .filter((p) => p.lead.nextStepOrder > 0 || p.lead.subsequenceId)
    .map((p) => ({ campaignId: p.campaign.id, leadId: p.lead.leadId }));
  const subsequences = [...new Set(picks.flatMap((p) => (p.lead.subsequenceId ? [p.lead.subsequenceId] : [])))];
  const [stats, earlier, known, threading, bases] = await Promise.all([
    sendsByVariant(db, [...new Set(optimised)]),
    earlierEmails(db, followUps),
    knownCustomFields(db, [...new Set(picks.map((p) => p.campaign.id))], rows.steps, now),
    subsequenceThreading(db, subsequences),
    trackingBases(
      db,
      picks.map((p) => p.campaign),
    ),
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
    const before = threadOf(
      earlier.get(`${p.campaign.id}\u0000${lead.id}`) ?? [],
      d.subsequenceId,
      threading,
      rows.steps.get(p.campaign.id),
    );
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
      trackingBase: bases.get(p.campaign.id),
    });
  }
  return work;
}
