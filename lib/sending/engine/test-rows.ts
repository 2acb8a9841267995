import type { Campaign, DueLead, Mailbox, Step } from "./types";

/** Rows as the scheduler reads them, for decide's pure tests: a mailbox, a campaign, a step, a due lead. */

const T = (iso: string) => new Date(iso);

export function mailbox(id: string, over: Partial<Mailbox> = {}): Mailbox {
  return {
    id,
    workspaceId: "ws_1",
    email: `${id}@sender.test`,
    senderName: null,
    signatureHtml: null,
    authType: "PASSWORD",
    smtpHost: "smtp.sender.test",
    smtpPort: 587,
    smtpSecurity: "STARTTLS",
    smtpUsername: id,
    smtpPasswordEnc: "x",
    dailySendCap: 20,
    sendingEnabled: true,
    isSeed: false,
    loginFailingSince: null,
    autoPausedAt: null,
    nextSendAt: null,
    ...over,
  };
}

export function campaign(over: Partial<Campaign> = {}): Campaign {
  return {
    id: "cmp_1",
    seq: 1,
    workspaceId: "ws_1",
    name: "C",
    status: "ACTIVE",
    folder: null,
    sendWindowStartHour: 9,
    sendWindowEndHour: 17,
    sendDaysOfWeek: [1, 2, 3, 4, 5],
    startAt: null,
    dailyNewLeadCap: null,
    defaultTimezone: null,
    abVariantOptimization: false,
    trackOpens: false,
    trackClicks: false,
    stopOnReply: true,
    stopOnAutoReply: false,
    unsubscribeHeader: true,
    textOnly: false,
    espMatching: "OFF",
    minGapMinutes: 9,
    skipHolidays: false,
    blackoutDates: [],
    oooResume: true,
    oooDefaultPauseDays: 7,
    trackingDomainId: null,
    firstSentAt: null,
    createdAt: T("2026-10-01T00:00:00Z"),
    updatedAt: T("2026-10-01T00:00:00Z"),
    ...over,
  };
}

export function step(stepOrder: number, over: Partial<Step> = {}): Step {
  return {
    id: `stp_${stepOrder}${over.variantGroup ?? ""}`,
    workspaceId: "ws_1",
    campaignId: "cmp_1",
    stepOrder,
    variantGroup: "",
    subject: "Hi",
    bodyTemplate: "Hello",
    bodyHtmlTemplate: null,
    delayHoursAfterPrevious: stepOrder === 0 ? null : 48,
    subsequenceId: null,
    branches: [],
    createdAt: T("2026-10-01T00:00:00Z"),
    updatedAt: T("2026-10-01T00:00:00Z"),
    ...over,
  };
}

export function lead(leadId: string, over: Partial<DueLead> = {}): DueLead {
  return {
    workspaceId: "ws_1",
    mailboxId: "mbx_1",
    campaignId: "cmp_1",
    leadId,
    status: "ACTIVE",
    nextStepOrder: 0,
    subsequenceId: null,
    nextSendAt: null,
    failedAttempts: 0,
    firstEmailedAt: null,
    lastEmailedAt: null,
    email: `${leadId}@lead.test`,
    timezone: null,
    firstName: null,
    lastName: null,
    companyName: null,
    companyDomain: null,
    jobTitle: null,
    phoneNumber: null,
    customFields: {},
    ...over,
  };
}
