import { requireAccess, type Ctx } from "../ctx";
import { composeRaw } from "../mail/compose-raw";
import { newMessageId } from "../mail/message-id";
import { signatureText } from "../templates/render";
import { addOpenPixel, rewriteLinks, unsubscribeUrl } from "../sending/tracking";
import { findCampaign } from "./campaigns";
import { renderForLead } from "./preview";
import { stepsOf } from "./variables";

/** The email id the sample messages' tracking links and pixel are made for (no email has it). */
const SAMPLE_EMAIL_ID = "eml_sample";

export interface SampleMessage {
  step: { stepId: string; stepOrder: number; variantGroup: string | null };
  raw: string;
}

/**
 * Every step of a campaign rendered for its sample lead (the preview's: the first lead, else an empty
 * one) and written as the send engine writes it: the open pixel and click redirects when the campaign
 * tracks them, the unsubscribe headers when it sends them, threaded subjects for follow-ups. For a
 * filter that scores the messages before anything is sent; files are left out.
 */
export async function sampleMessages(ctx: Ctx, campaignId: string): Promise<SampleMessage[]> {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const out: SampleMessage[] = [];
  // Follow-ups answer the first email, as they do when sent.
  let first: string | undefined;
  for (const s of await stepsOf(ctx.db, campaignId)) {
    const r = await renderForLead(ctx.db, ctx, c, s, s.stepOrder, undefined, undefined, { stepId: s.id });
    let html = r.html ?? undefined;
    if (html && c.trackClicks) html = rewriteLinks(html, SAMPLE_EMAIL_ID);
    if (html && c.trackOpens) html = addOpenPixel(html, SAMPLE_EMAIL_ID);
    const from = r.mailboxRow?.email ?? "sender@example.com";
    const headers: Record<string, string> = {};
    if (c.unsubscribeHeader) {
      headers["List-Unsubscribe"] = `<${unsubscribeUrl(SAMPLE_EMAIL_ID)}>`;
      headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
    }
    const messageId = newMessageId(from);
    const raw = await composeRaw({
      from: r.mailboxRow?.senderName ? { name: r.mailboxRow.senderName, address: from } : from,
      to: r.lead?.email ?? "lead@example.com",
      subject: r.subject,
      // As the engine does: a step written in HTML alone gets a text part made from it.
      text: r.text.trim() || !r.html ? r.text : signatureText(r.html),
      html,
      messageId,
      inReplyTo: s.stepOrder > 0 ? first : undefined,
      references: s.stepOrder > 0 && first ? [first] : undefined,
      headers,
    });
    if (s.stepOrder === 0) first ??= messageId;
    out.push({ step: { stepId: s.id, stepOrder: s.stepOrder, variantGroup: s.variantGroup || null }, raw });
  }
  return out;
}
