import { convert } from "html-to-text";
import { parseSpintax, restoreLiterals, spin, spintaxProblems, type SpinKey } from "./spintax";

/**
 * The one renderer: preview, test sends and real sends all call renderStep, so what a
 * user previews is what a lead receives.
 */

export const LEAD_VARIABLES = [
  "firstName",
  "lastName",
  "email",
  "companyName",
  "companyDomain",
  "jobTitle",
  "phoneNumber",
  "timezone",
] as const;
export const MAILBOX_VARIABLES = ["senderName", "signature"] as const;
type LeadVariable = (typeof LEAD_VARIABLES)[number];
const BUILTIN = new Set<string>([...LEAD_VARIABLES, ...MAILBOX_VARIABLES]);

export interface RenderLead {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
  companyDomain?: string | null;
  jobTitle?: string | null;
  phoneNumber?: string | null;
  timezone?: string | null;
  customFields?: Record<string, string>;
}

/** A built-in lead variable's value by its token name; undefined when the name is not one of LEAD_VARIABLES. */
export function leadVariable(lead: RenderLead, name: string): string | null | undefined {
  return (LEAD_VARIABLES as readonly string[]).includes(name) ? lead[name as LeadVariable] : undefined;
}

export interface RenderMailbox {
  senderName: string | null;
  signatureHtml: string | null;
}

export interface StepTemplate {
  subject: string | null;
  bodyTemplate: string;
  bodyHtmlTemplate?: string | null;
}

export interface RenderOptions {
  /** Custom-field names some lead has: such a token on a lead without it is empty, not unknown. */
  knownCustomFields?: Iterable<string>;
  /** Make an HTML part from the text when the step has none (open tracking needs one). */
  htmlFromText?: boolean;
  /** Whose email this is, for spintax: the same lead and step always get the same choices. */
  spin?: Omit<SpinKey, "part">;
}

export type SignaturePlacement = "at_token" | "appended_at_bottom" | "none";

export interface RenderResult {
  subject: string;
  text: string;
  html: string | null;
  signature: SignaturePlacement;
  variables: { used: string[]; unknown: string[]; malformed: string[]; empty: string[] };
  /** Spintax groups in the step, and how many spin indexes show every choice of the widest one. */
  spintax: { groups: number; choices: number };
  notes: string[];
}

const TOKEN = /\{\{([^{}]+)\}\}/g;
/** A subject is one line: line breaks (and the spaces around them) become one space. */
const subjectLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, " ").trim();
const SIG_TOKEN = "{{signature}}";

/** The answers for recent templates: a campaign step is rendered for thousands of leads with the same text. */
const malformedCache = new Map<string, string[]>();

/** Text that looks like a variable but is not one: stray or unbalanced braces, single braces around a known name. */
export function findMalformed(template: string): string[] {
  const hit = malformedCache.get(template);
  if (hit) return hit;
  const found = Object.freeze(scanMalformed(template)) as string[];
  if (malformedCache.size >= 200) malformedCache.delete(malformedCache.keys().next().value as string);
  malformedCache.set(template, found);
  return found;
}

function scanMalformed(template: string): string[] {
  const out: string[] = [];
  const withoutTokens = template
    .replace(/\{\{\{([^{}]*)\}\}\}/g, (m) => {
      out.push(m);
      return " ";
    })
    .replace(TOKEN, " ");
  for (const m of withoutTokens.matchAll(/\{\{[^{}]{0,40}|[^{}]{0,40}\}\}/g)) out.push(m[0].trim());
  for (const m of template.matchAll(/(?<!\{)\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}(?!\})/g)) if (BUILTIN.has(m[1])) out.push(m[0]);
  out.push(...spintaxProblems(template));
  return [...new Set(out.filter(Boolean))];
}

export function tokenNames(template: string): string[] {
  return [...template.matchAll(TOKEN)].map((m) => m[1]);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export function signatureText(signatureHtml: string | null): string {
  if (!signatureHtml?.trim()) return "";
  return convert(signatureHtml, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  }).trim();
}

/** Plain text to a simple HTML body: escaped, paragraphs and line breaks kept. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

type Resolution = { kind: "value"; value: string } | { kind: "empty" } | { kind: "unknown" };

function resolver(lead: RenderLead, mailbox: RenderMailbox, known: Set<string>) {
  return (name: string): Resolution => {
    let v: string | null | undefined;
    if ((LEAD_VARIABLES as readonly string[]).includes(name)) v = leadVariable(lead, name);
    else if (name === "senderName") v = mailbox.senderName;
    else if (lead.customFields && Object.hasOwn(lead.customFields, name)) v = lead.customFields[name];
    else if (known.has(name)) v = "";
    else return { kind: "unknown" };
    return v ? { kind: "value", value: v } : { kind: "empty" };
  };
}

/** Removes the lines that hold only {{signature}}, and the token where it shares a line. */
function dropSignatureText(t: string): string {
  return t
    .split("\n")
    .filter((line) => line.trim() !== SIG_TOKEN)
    .join("\n")
    .replace(/[ \t]*\{\{signature\}\}[ \t]*/g, " ")
    .replace(/ +\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd();
}

function dropSignatureHtml(h: string): string {
  return h
    .replace(/<(p|div|span|td)(\s[^>]*)?>\s*(<br\s*\/?>\s*)*\{\{signature\}\}\s*(<br\s*\/?>\s*)*<\/\1>/gi, "")
    .replace(/(<br\s*\/?>\s*)+\{\{signature\}\}/gi, "")
    .replace(/\{\{signature\}\}\s*(<br\s*\/?>)?/gi, "");
}

function appendHtml(html: string, fragment: string): string {
  const i = html.search(/<\/body>/i);
  return i >= 0 ? html.slice(0, i) + fragment + html.slice(i) : html + fragment;
}

const levenshtein = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
};

export function suggestVariable(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of [...BUILTIN, ...known]) {
    const d = k.toLowerCase() === name.trim().toLowerCase() ? 0 : levenshtein(name.trim().toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/**
 * Renders one step for one lead from one mailbox. Unknown tokens stay literal, empty fields
 * become empty text, the signature goes where {{signature}} is in each part, at the
 * bottom when absent (never twice), and its line is removed when the mailbox has none.
 */
export function renderStep(template: StepTemplate, lead: RenderLead, mailbox: RenderMailbox, opts: RenderOptions = {}): RenderResult {
  const step = spunStep(template, opts.spin);
  const known = new Set(opts.knownCustomFields ?? []);
  const resolve = resolver(lead, mailbox, known);
  const used = new Set<string>();
  const unknown = new Set<string>();
  const empty = new Set<string>();

  const fill = (template: string, asHtml: boolean) =>
    template.replace(TOKEN, (raw, name: string) => {
      if (name === "signature") return raw; // placed separately, per part
      const r = resolve(name);
      if (r.kind === "unknown") {
        unknown.add(name);
        return raw;
      }
      used.add(name);
      if (r.kind === "empty") {
        empty.add(name);
        return "";
      }
      return asHtml ? escapeHtml(r.value) : r.value;
    });

  const sigHtml = mailbox.signatureHtml?.trim() ? mailbox.signatureHtml.trim() : "";
  const sigText = signatureText(sigHtml);
  const hasSignature = sigText !== "" || sigHtml !== "";
  const textHasToken = step.bodyTemplate.includes(SIG_TOKEN);
  const htmlHasToken = !!step.bodyHtmlTemplate?.includes(SIG_TOKEN);
  if (textHasToken || htmlHasToken) used.add("signature");

  // Text part.
  let text = fill(step.bodyTemplate, false);
  const SIG = "\u0000SIGNATURE\u0000";
  if (textHasToken) {
    text = hasSignature ? text.replace(SIG_TOKEN, SIG).split(SIG_TOKEN).join("").replace(SIG, sigText) : dropSignatureText(text);
  } else if (hasSignature) {
    text = `${text.trimEnd()}\n\n${sigText}`;
  }

  // HTML part: the step's own, or one made from the text when asked.
  let html: string | null = null;
  const sigBlock = `<div class="signature">${sigHtml}</div>`;
  if (step.bodyHtmlTemplate?.trim()) {
    html = fill(step.bodyHtmlTemplate, true);
    if (htmlHasToken)
      html = hasSignature ? html.replace(SIG_TOKEN, SIG).split(SIG_TOKEN).join("").replace(SIG, sigBlock) : dropSignatureHtml(html);
    else if (hasSignature) html = appendHtml(html, `<br>${sigBlock}`);
  } else if (opts.htmlFromText) {
    let body = fill(step.bodyTemplate, false);
    if (textHasToken) body = hasSignature ? body.replace(SIG_TOKEN, SIG).split(SIG_TOKEN).join("") : dropSignatureText(body);
    html = textToHtml(body).replace(escapeHtml(SIG), sigBlock);
    if (!textHasToken && hasSignature) html += `\n${sigBlock}`;
  }

  const subject = restoreLiterals(subjectLine(fill(step.subject ?? "", false)));
  text = restoreLiterals(text);
  if (html !== null) html = restoreLiterals(html);
  const parts = [template.subject ?? "", template.bodyTemplate, template.bodyHtmlTemplate ?? ""];
  const malformed = [...new Set(parts.flatMap(findMalformed))];
  const spun = parts.map(parseSpintax);
  const spintax = { groups: spun.reduce((n, p) => n + p.groups, 0), choices: Math.max(1, ...spun.map((p) => p.widest)) };

  const signature: SignaturePlacement = !hasSignature ? "none" : textHasToken || htmlHasToken ? "at_token" : "appended_at_bottom";
  const notes: string[] = [];
  for (const u of unknown) {
    const hint = suggestVariable(u, known);
    notes.push(`{{${u}}} is not a known variable, so it will be sent exactly as written.${hint ? ` Did you mean {{${hint}}}?` : ""}`);
  }
  for (const e of empty) notes.push(`{{${e}}} is empty for this lead and becomes empty text.`);
  for (const m of malformed) notes.push(`"${m}" looks like a variable but is not written as {{name}}; it will be sent as written.`);
  if (signature === "appended_at_bottom")
    notes.push("There is no {{signature}} in the body, so the mailbox's signature is added at the bottom.");
  if (signature === "none" && (textHasToken || htmlHasToken))
    notes.push("The mailbox has no signature, so the {{signature}} line is removed.");
  const variables = { used: [...used], unknown: [...unknown], malformed, empty: [...empty] };
  return { subject, text, html, signature, variables, spintax, notes };
}

/** The step with each spintax group replaced by this lead's choice (the subject's and the body's chosen apart). */
function spunStep(step: StepTemplate, key: RenderOptions["spin"]): StepTemplate {
  const k = key ?? { leadId: "", stepId: "" };
  return {
    subject: step.subject === null ? null : spin(step.subject, { ...k, part: "subject" }),
    bodyTemplate: spin(step.bodyTemplate, { ...k, part: "body" }),
    bodyHtmlTemplate: step.bodyHtmlTemplate ? spin(step.bodyHtmlTemplate, { ...k, part: "body" }) : step.bodyHtmlTemplate,
  };
}

/**
 * The subject alone, exactly as renderStep makes it (the scheduler fixes it before the body is
 * rendered, thousands at a time): unknown tokens literal, empty fields empty, one line.
 */
export function renderSubject(subject: string, lead: RenderLead, mailbox: RenderMailbox, opts: RenderOptions = {}): string {
  const resolve = resolver(lead, mailbox, new Set(opts.knownCustomFields ?? []));
  const spun = spin(subject, { ...(opts.spin ?? { leadId: "", stepId: "" }), part: "subject" });
  const line = subjectLine(
    spun.replace(TOKEN, (raw, name: string) => {
      if (name === "signature") return raw;
      const r = resolve(name);
      return r.kind === "unknown" ? raw : r.kind === "empty" ? "" : r.value;
    }),
  );
  return restoreLiterals(line);
}
