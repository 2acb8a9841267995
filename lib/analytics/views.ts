import { rate } from "./counts";
import { type MachineCounts, NO_MACHINES } from "./machine-counts";
import type { Counts } from "./rollups";

export interface Tracking {
  trackOpens: boolean;
  trackClicks: boolean;
}

/** A campaign's numbers (the list, GET /stats, campaigns.csv, the branded report). */
export function campaignStatsView(c: Counts, t: Tracking, m: MachineCounts = NO_MACHINES) {
  return {
    sentCount: c.sent,
    leadsContacted: c.leadsContacted,
    openedCount: c.opened,
    openedRate: rate(c.opened, c.leadsContacted),
    clickedCount: c.clicked,
    clickedRate: rate(c.clicked, c.leadsContacted),
    machineOpenedCount: m.machineOpened,
    machineClickedCount: m.machineClicked,
    repliedCount: c.replied,
    repliedRate: rate(c.replied, c.leadsContacted),
    positiveCount: c.positive,
    positiveRate: rate(c.positive, c.leadsContacted),
    bouncedCount: c.bounced,
    bouncedRate: rate(c.bounced, c.sent),
    opensTracked: t.trackOpens,
    clicksTracked: t.trackClicks,
  };
}
export type CampaignStats = ReturnType<typeof campaignStatsView>;

/** Rule 1: the overview's numbers (GET /analytics/overview, analytics.csv, the branded report). */
export function overviewView(c: Counts, extra: { totalLeads: number; totalMailboxes: number } & Tracking, m: MachineCounts = NO_MACHINES) {
  return {
    totalSent: c.sent,
    leadsContacted: c.leadsContacted,
    totalOpened: c.opened,
    totalClicked: c.clicked,
    machineOpenedCount: m.machineOpened,
    machineClickedCount: m.machineClicked,
    totalReplied: c.replied,
    totalPositive: c.positive,
    totalBounced: c.bounced,
    totalLeads: extra.totalLeads,
    totalMailboxes: extra.totalMailboxes,
    openRate: rate(c.opened, c.leadsContacted),
    clickRate: rate(c.clicked, c.leadsContacted),
    replyRate: rate(c.replied, c.leadsContacted),
    positiveRate: rate(c.positive, c.leadsContacted),
    bounceRate: rate(c.bounced, c.sent),
    opensTracked: extra.trackOpens,
    clicksTracked: extra.trackClicks,
  };
}
export type Overview = ReturnType<typeof overviewView>;

/** The numbers a mailbox row (and a domain row) carries. */
export function senderNumbers(c: Counts) {
  return {
    sent: c.sent,
    bouncedHard: c.bouncedHard,
    bouncedSoft: c.bouncedSoft,
    bounced: c.bounced,
    bounceRate: rate(c.bounced, c.sent),
    failed: c.failed,
    leadsContacted: c.leadsContacted,
    replied: c.replied,
    positive: c.positive,
    opened: c.opened,
    clicked: c.clicked,
    replyRate: rate(c.replied, c.leadsContacted),
    positiveRate: rate(c.positive, c.leadsContacted),
    lastSentAt: c.lastSentAt,
  };
}

/** A day row of the time series. */
export function dayView(date: string, c: Counts) {
  return { date, sent: c.sent, opened: c.opened, clicked: c.clicked, replied: c.replied, positive: c.positive, bounced: c.bounced };
}
