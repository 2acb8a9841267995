import type { Step } from "../types";

/** One variant's editor content; numbers stay text so a field can be empty while typing. */
export interface Draft {
  subject: string;
  bodyTemplate: string;
  /** Whether the step has an HTML body (off: sent as plain text). */
  html: boolean;
  bodyHtmlTemplate: string;
  delayHours: string;
}

/** A variant not saved yet: created by POST when the user saves it. */
export interface NewVariant {
  key: string;
  stepOrder: number;
  variantGroup: string | null;
}

/** An editor on screen: a saved step or a new one. */
export interface Slot {
  key: string;
  stepOrder: number;
  variantGroup: string | null;
  step?: Step;
}

export const DEFAULT_FOLLOW_UP_DELAY_HOURS = "72";

export function draftOf(s: Step): Draft {
  return {
    subject: s.subject ?? "",
    bodyTemplate: s.bodyTemplate,
    html: s.bodyHtmlTemplate !== null,
    bodyHtmlTemplate: s.bodyHtmlTemplate ?? "",
    delayHours: s.delayHoursAfterPrevious === null ? "" : String(s.delayHoursAfterPrevious),
  };
}

export function emptyDraft(stepOrder: number): Draft {
  return {
    subject: "",
    bodyTemplate: "",
    html: false,
    bodyHtmlTemplate: "",
    delayHours: stepOrder === 0 ? "" : DEFAULT_FOLLOW_UP_DELAY_HOURS,
  };
}

/** A delay as the API wants it: the number, null when empty, or the raw text so the API names the problem. */
function delayValue(v: string): number | null | string {
  if (!v.trim()) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

/** The step fields of a draft. A follow-up's own subject is never used, so only step 0 sends one. */
export function fieldsOf(d: Draft, stepOrder: number) {
  return {
    ...(stepOrder === 0 ? { subject: d.subject } : {}),
    bodyTemplate: d.bodyTemplate,
    bodyHtmlTemplate: d.html ? d.bodyHtmlTemplate : null,
    // Typed as the contract's number: text that is no number still goes as typed, for the API's field error.
    delayHoursAfterPrevious: stepOrder === 0 ? null : (delayValue(d.delayHours) as number | null),
  };
}

/** What PATCH should send: only the fields that differ from the saved step. */
export function patchOf(s: Step, d: Draft): Record<string, unknown> {
  const next = fieldsOf(d, s.stepOrder);
  const saved = fieldsOf(draftOf(s), s.stepOrder);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) if (v !== saved[k as keyof typeof saved]) out[k] = v;
  return out;
}

/** Plain text as simple HTML paragraphs: the starting point when a step gets an HTML body. */
export function textToHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p>${esc(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** Saved and new variants grouped by step, in send order; within a step the base variant (no group) first. */
export function stepGroups(steps: Step[], added: NewVariant[]): { stepOrder: number; slots: Slot[] }[] {
  const slots: Slot[] = [
    ...steps.map((s) => ({ key: s.id, stepOrder: s.stepOrder, variantGroup: s.variantGroup, step: s })),
    ...added.map((n) => ({ key: n.key, stepOrder: n.stepOrder, variantGroup: n.variantGroup })),
  ];
  const orders = [...new Set(slots.map((s) => s.stepOrder))].sort((a, b) => a - b);
  return orders.map((stepOrder) => ({
    stepOrder,
    slots: slots.filter((s) => s.stepOrder === stepOrder).sort((a, b) => (a.variantGroup ?? "").localeCompare(b.variantGroup ?? "")),
  }));
}
