import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignSteps, leads, mailboxes } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError, UpstreamError } from "../errors";
import { SmtpError } from "../mail/smtp";
import { sendSmtpAs } from "../mailboxes/credentials";
import { renderStep, type RenderLead, type StepTemplate } from "../templates/render";
import { spin } from "../templates/spintax";
import { stepFiles } from "./attachments";
import { findCampaign, type CampaignRow } from "./campaigns";
import { poolMailboxes } from "./eligibility";
import type { previewBody } from "./schemas";
import { campaignLeadsForCheck, checkVariables, stepsOf } from "./variables";
import { findStep } from "./steps";

type LeadRow = typeof leads.$inferSelect;
type MailboxRow = typeof mailboxes.$inferSelect;

/** Custom-field names used by the campaign's leads (a token naming one is empty, not unknown, on a lead without it). */
async function knownCustomFields(db: DbOrTx, campaignId: string, lead?: LeadRow): Promise<string[]> {
  const rows = await selectRows<{ k: string }>(
    db,
    sql`
      select distinct jsonb_object_keys(l.custom_fields) as k
      from campaign_leads cl join leads l on l.id = cl.lead_id
      where cl.campaign_id = ${campaignId}`,
  );
  return [...new Set([...rows.map((r) => r.k), ...Object.keys(lead?.customFields ?? {})])];
}

/**
 * The lead and mailbox a preview or test send uses: given ones, else the campaign's first lead and its
 * assigned (or first pool) mailbox.
 */
async function pickLeadAndMailbox(db: DbOrTx, ctx: Ctx, c: CampaignRow, leadId?: string, mailboxId?: string) {
  let lead: LeadRow | undefined;
  let assigned: string | null = null;
  if (leadId) {
    [lead] = await db
      .select()
      .from(leads)
      .where(and(eq(leads.id, leadId), eq(leads.workspaceId, ctx.workspaceId)));
    if (!lead) throw new NotFoundError("Lead");
  } else {
    [lead] = (
      await db
        .select({ l: leads })
        .from(campaignLeads)
        .innerJoin(leads, eq(leads.id, campaignLeads.leadId))
        .where(eq(campaignLeads.campaignId, c.id))
        .orderBy(asc(campaignLeads.seq))
        .limit(1)
    ).map((r) => r.l);
  }
  if (lead) {
    const [cl] = await db
      .select({ mailboxId: campaignLeads.mailboxId })
      .from(campaignLeads)
      .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, lead.id)));
    assigned = cl?.mailboxId ?? null;
  }
  let mailbox: MailboxRow | undefined;
  const wanted = mailboxId ?? assigned;
  if (wanted) {
    [mailbox] = await db
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.id, wanted), eq(mailboxes.workspaceId, ctx.workspaceId)));
    if (!mailbox && mailboxId) throw new NotFoundError("Mailbox");
  }
  mailbox ??= (await poolMailboxes(db, c.id))[0];
  return { lead, mailbox };
}

const SAMPLE_LEAD: RenderLead = { email: "lead@example.com" };

/** The rendered subject of a step: follow-ups are "Re: " + the first email's subject. */
async function subjectFor(db: DbOrTx, c: CampaignRow, stepOrder: number, template: StepTemplate, leadId: string) {
  if (stepOrder === 0) return template;
  const [first] = await db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.campaignId, c.id), eq(campaignSteps.stepOrder, 0)))
    .orderBy(asc(campaignSteps.variantGroup))
    .limit(1);
  // The first email's subject with the spintax choices this lead got in it.
  return { ...template, subject: first?.subject ? spin(first.subject, { leadId, stepId: first.id, part: "subject" }) : "" };
}

export async function renderForLead(
  db: DbOrTx,
  ctx: Ctx,
  c: CampaignRow,
  template: StepTemplate,
  stepOrder: number,
  leadId?: string,
  mailboxId?: string,
  spin: { stepId: string; index?: number } = { stepId: "" },
) {
  const { lead, mailbox } = await pickLeadAndMailbox(db, ctx, c, leadId, mailboxId);
  const known = await knownCustomFields(db, c.id, lead);
  const t = await subjectFor(db, c, stepOrder, template, lead?.id ?? "");
  const r = renderStep(t, lead ?? SAMPLE_LEAD, mailbox ?? { senderName: null, signatureHtml: null }, {
    knownCustomFields: known,
    htmlFromText: c.trackOpens && !c.textOnly,
    spin: { leadId: lead?.id ?? "", stepId: spin.stepId, index: spin.index },
  });
  if (stepOrder > 0) {
    r.subject = `Re: ${r.subject}`;
    r.notes.push(
      'Follow-ups go in the same thread: the subject is "Re: " + the subject of the first email the lead got; ' +
        "this step's own subject is not used.",
    );
  }
  if (!lead) r.notes.push("The campaign has no leads yet, so the preview uses an empty sample lead.");
  if (!mailbox) r.notes.push("No mailbox is assigned or in the pool, so there is no sender name or signature.");
  if (c.textOnly) r.html = null;
  return {
    ...r,
    lead: lead ? { id: lead.id, email: lead.email } : null,
    mailbox: mailbox ? { id: mailbox.id, email: mailbox.email } : null,
    mailboxRow: mailbox,
    leadRow: lead,
  };
}

/** POST /campaigns/<id>/steps/preview: the real renderer, without the tracking pixel and click redirects. */
export async function previewStep(ctx: Ctx, campaignId: string, input: z.infer<typeof previewBody>) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  let template: StepTemplate;
  let stepOrder: number;
  if (input.stepId) {
    const s = await findStep(ctx.db, ctx.workspaceId, campaignId, input.stepId);
    const draft = input.bodyTemplate !== undefined;
    template = draft
      ? { subject: input.subject ?? null, bodyTemplate: input.bodyTemplate ?? "", bodyHtmlTemplate: input.bodyHtmlTemplate ?? null }
      : s;
    stepOrder = s.stepOrder;
  } else {
    template = { subject: input.subject ?? null, bodyTemplate: input.bodyTemplate ?? "", bodyHtmlTemplate: input.bodyHtmlTemplate ?? null };
    stepOrder = input.stepOrder ?? 0;
  }
  const spin = { stepId: input.stepId ?? "", index: input.spinIndex };
  const {
    mailboxRow: _m,
    leadRow: _l,
    ...out
  } = await renderForLead(ctx.db, ctx, c, template, stepOrder, input.leadId, input.mailboxId, spin);
  return out;
}

/** GET /campaigns/<id>/variables-check: every step against every lead (up to 5000). */
export async function variablesCheck(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const [steps, { leads: checkLeads, total }] = await Promise.all([stepsOf(ctx.db, campaignId), campaignLeadsForCheck(ctx.db, campaignId)]);
  const result = checkVariables(steps, checkLeads);
  return { ok: result.ok, leadsChecked: checkLeads.length, totalLeads: total, truncated: total > checkLeads.length, steps: result.steps };
}

/**
 * POST /campaigns/<id>/steps/<stepId>/test-send: the step rendered for a real lead, with its files,
 * from the chosen or assigned mailbox, to any address. Recorded nowhere as a campaign send.
 */
export async function testSendStep(
  ctx: Ctx,
  campaignId: string,
  stepId: string,
  input: { to: string; leadId?: string; mailboxId?: string },
) {
  requireAccess(ctx, "write");
  const c = await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const s = await findStep(ctx.db, ctx.workspaceId, campaignId, stepId);
  const r = await renderForLead(ctx.db, ctx, c, s, s.stepOrder, input.leadId, input.mailboxId, { stepId: s.id });
  if (!r.mailboxRow) throw new NotFoundError("Mailbox (the campaign has no pool mailbox; pass mailboxId)");
  const m = r.mailboxRow;
  const attachments = await stepFiles(ctx.db, s.id);
  const body = `${r.text}\n${r.html ?? ""}`;
  try {
    const info = await sendSmtpAs(ctx, m, {
      from: { name: m.senderName, address: m.email },
      to: input.to,
      subject: r.subject,
      text: r.text,
      html: r.html ?? undefined,
      // Inline images only when the body shows them.
      attachments: attachments
        .filter((a) => !a.cid || body.includes(`cid:${a.cid}`))
        .map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.data, cid: a.cid ?? undefined })),
    });
    return { sent: true, messageId: info.messageId, to: input.to, from: m.email, subject: r.subject, lead: r.lead };
  } catch (e) {
    if (e instanceof SmtpError) throw new UpstreamError(e.message, { smtpResponseCode: e.responseCode ?? null });
    throw e;
  }
}
