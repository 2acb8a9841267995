"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Highlight, type Range } from "@/components/ui/highlight";
import type { Attachment, Preview } from "../types";
import type { Draft } from "./drafts";
import { LeadPicker, MailboxPicker } from "./pickers";
import { usePreview } from "./use-preview";

const SIGNATURE: Record<Preview["signature"], string> = {
  at_token: "placed where {{signature}} is written",
  appended_at_bottom: "appended at the bottom (the body has no {{signature}})",
  none: "none: the mailbox has no signature",
};

/** Where raw template text would reach the lead: every {{unknown}} token and malformed bit, to mark in red. */
function rawRanges(text: string, v: Preview["variables"]): Range[] {
  const needles = [...v.unknown.map((u) => `{{${u}}}`), ...v.malformed];
  const out: Range[] = [];
  for (const n of needles)
    for (let i = text.indexOf(n); n && i >= 0; i = text.indexOf(n, i + n.length))
      out.push({ index: i, length: n.length, title: "sent exactly as written" });
  return out;
}

/** The HTML as a mail client shows it: inline images (cid:) swapped for their bytes, which the attachment list carries. */
function withInlineImages(html: string, files: Attachment[] | undefined): string {
  let out = html;
  for (const f of files ?? [])
    if (f.cid && f.dataBase64) out = out.split(`cid:${f.cid}`).join(`data:${f.contentType};base64,${f.dataBase64}`);
  return out;
}

/**
 * The rendered HTML as a document of its own, in standards mode: a bare fragment in a frame falls back
 * to the browser's serif default, which no mail client shows. The base style comes first, so the
 * email's own CSS (its style blocks and inline styles) decides; where it sets no font, the text is in
 * the sans-serif mail clients use.
 */
export function previewDocument(html: string): string {
  const base =
    "body{margin:0;padding:12px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#111827}img{max-width:100%}";
  return `<!doctype html><meta charset="utf-8"><style>${base}</style>${html}`;
}

function noteTone(note: string, v: Preview["variables"]): string {
  if (v.unknown.some((u) => note.startsWith(`{{${u}}}`)) || v.malformed.some((m) => note.startsWith(`"${m}"`))) return "text-red-700";
  if (v.empty.some((e) => note.startsWith(`{{${e}}}`))) return "text-yellow-800";
  return "text-gray-700";
}

/**
 * The draft being edited, rendered by the server's own renderer (POST steps/preview) for a chosen lead
 * and mailbox, a moment after the typing stops: what the lead would receive, minus tracking.
 */
export function PreviewPanel({
  campaignId,
  title,
  stepOrder,
  stepId,
  draft,
}: {
  campaignId: string;
  title: string;
  stepOrder: number;
  stepId?: string;
  draft: Draft;
}) {
  const { leadId, setLeadId, mailboxId, setMailboxId, spinIndex, setSpinIndex, files, preview } = usePreview({
    campaignId,
    stepOrder,
    stepId,
    draft,
  });
  const p = preview.data;
  return (
    <section aria-label="Preview" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold text-gray-900">Preview · {title}</h2>
        {preview.isFetching && <span className="text-xs text-gray-500">Updating…</span>}
      </div>
      <div className="space-y-2">
        <LeadPicker campaignId={campaignId} value={leadId} onChange={setLeadId} label="Preview for lead" />
        <MailboxPicker campaignId={campaignId} value={mailboxId} onChange={setMailboxId} label="Preview from mailbox" />
      </div>
      {preview.error && <Alert tone="error">Could not render the preview: {describeError(preview.error)}</Alert>}
      {p && p.spintax.groups > 0 && <Variations choices={p.spintax.choices} index={spinIndex} onIndex={setSpinIndex} />}
      {p && <PreviewBody p={p} files={files.data} filesReady={!stepId || !files.isPending} />}
    </section>
  );
}

/**
 * Which spintax choices the preview shows: the first variation is the lead's own, as it will be sent; Previous
 * and Next go round the others, as many as the widest group has choices.
 */
function Variations({ choices, index, onIndex }: { choices: number; index: number; onIndex: (i: number) => void }) {
  const n = Math.max(1, choices);
  const at = index % n;
  return (
    <div className="flex items-center gap-2 text-xs text-gray-700" data-testid="preview-variation">
      <Button variant="secondary" size="sm" aria-label="Previous variation" onClick={() => onIndex((at + n - 1) % n)}>
        ‹
      </Button>
      <span aria-live="polite">
        Variation {at + 1} of {n}
        {at === 0 && <span className="text-gray-500"> · As this lead receives it</span>}
      </span>
      <Button variant="secondary" size="sm" aria-label="Next variation" onClick={() => onIndex((at + 1) % n)}>
        ›
      </Button>
    </div>
  );
}

/** The rendering itself: headers, text, HTML (once the step's files are known), signature, variables and notes. */
function PreviewBody({ p, files, filesReady }: { p: Preview; files: Attachment[] | undefined; filesReady: boolean }) {
  return (
    <div className="space-y-3 text-sm">
      <dl className="grid grid-cols-[4.5rem_1fr] gap-x-2 gap-y-1">
        <dt className="text-gray-500">From</dt>
        <dd>{p.mailbox?.email ?? "—"}</dd>
        <dt className="text-gray-500">To</dt>
        <dd>{p.lead?.email ?? "a sample lead"}</dd>
        <dt className="text-gray-500">Subject</dt>
        <dd className="font-medium" data-testid="preview-subject">
          <Highlight text={p.subject} ranges={rawRanges(p.subject, p.variables)} markClassName="bg-red-100 text-red-700" />
        </dd>
      </dl>
      <div>
        <p className="mb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">Text</p>
        <Highlight
          text={p.text}
          ranges={rawRanges(p.text, p.variables)}
          markClassName="bg-red-100 text-red-700"
          className="max-h-80 overflow-y-auto rounded-md border border-gray-200 bg-gray-50 p-3 font-mono text-xs text-gray-900"
        />
      </div>
      {/* Once the step's files are known, so that no cid: link is ever handed to the frame. */}
      {p.html !== null && filesReady && (
        <div>
          <p className="mb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">HTML</p>
          {/* sandbox="": no scripts, no forms, no navigation — the body is the user's own template, shown as a mail client would. */}
          <iframe
            title="HTML preview"
            sandbox=""
            srcDoc={previewDocument(withInlineImages(p.html, files))}
            className="h-72 w-full rounded-md border border-gray-200 bg-white"
          />
        </div>
      )}
      <p>
        <span className="text-gray-500">Signature: </span>
        <span data-testid="preview-signature">{SIGNATURE[p.signature]}</span>
      </p>
      <Variables v={p.variables} />
      {p.notes.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-xs" aria-label="Preview notes">
          {p.notes.map((n) => (
            <li key={n} className={noteTone(n, p.variables)}>
              {n}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Variables({ v }: { v: Preview["variables"] }) {
  const row = (label: string, names: string[], tone: "gray" | "red" | "yellow", wrap = true) =>
    names.length > 0 && (
      <div className="flex flex-wrap items-center gap-1" data-testid={`variables-${label.toLowerCase()}`}>
        <span className="w-20 text-xs text-gray-500">{label}</span>
        {names.map((n) => (
          <Badge key={n} tone={tone}>
            {wrap ? `{{${n}}}` : n}
          </Badge>
        ))}
      </div>
    );
  return (
    <fieldset className="min-w-0 space-y-1" aria-label="Variables">
      {row("Used", v.used, "gray")}
      {row("Unknown", v.unknown, "red")}
      {row("Malformed", v.malformed, "red", false)}
      {row("Empty", v.empty, "yellow")}
      {v.used.length + v.unknown.length + v.malformed.length === 0 && <p className="text-xs text-gray-500">No variables in this step.</p>}
    </fieldset>
  );
}
