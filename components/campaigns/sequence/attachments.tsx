"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { Attachment, Step } from "../types";
import { type StepFiles, useStepFiles } from "./use-step-files";

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function imgTag(a: Pick<Attachment, "cid" | "filename">): string {
  return `<img src="cid:${a.cid}" alt="${a.filename.replace(/"/g, "&quot;")}">`;
}

/** One file of the step: name, type and size; for an inline image its cid and the button that puts its <img> into the HTML body. */
function FileRow({
  a,
  body,
  removing,
  onInsert,
  onRemove,
}: {
  a: Attachment;
  body: string;
  removing: boolean;
  onInsert: (tag: string) => void;
  onRemove: () => void;
}) {
  return (
    <li className="flex flex-wrap items-center gap-2">
      <span className="font-medium">{a.filename}</span>
      <span className="text-xs text-gray-500">
        {a.contentType}, {size(a.size)}
      </span>
      {a.inline && (
        <>
          <Badge tone="indigo">inline</Badge>
          <code className="rounded bg-gray-100 px-1 text-xs" data-testid="attachment-cid">
            cid:{a.cid}
          </code>
          {!body.includes(`cid:${a.cid}`) && (
            <span className="text-xs text-yellow-800">not in the saved body yet: it is removed when the step is saved without it</span>
          )}
          <Button size="sm" variant="secondary" onClick={() => onInsert(imgTag(a))}>
            Insert into HTML body
          </Button>
        </>
      )}
      <Button size="sm" variant="ghost" className="text-red-700" aria-label={`Remove ${a.filename}`} disabled={removing} onClick={onRemove}>
        Remove
      </Button>
    </li>
  );
}

/** The "Inline image" box and the file input: a chosen file is uploaded at once. */
function UploadRow({ state, title }: { state: StepFiles; title: string }) {
  const { input, inline, setInline, upload } = state;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <label className="inline-flex items-center gap-2">
        <input type="checkbox" checked={inline} onChange={(e) => setInline(e.target.checked)} />
        Inline image
      </label>
      <input
        ref={input}
        type="file"
        aria-label={`Attach a file to ${title}`}
        accept={inline ? "image/png,image/jpeg,image/gif,image/webp" : undefined}
        disabled={upload.isPending}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) upload.mutate(f);
        }}
        className="min-w-0"
      />
      {upload.isPending && <span className="text-xs text-gray-500">Uploading…</span>}
    </div>
  );
}

/**
 * A step's files. Ordinary files go with every email of the step; an inline image (PNG/JPEG/GIF/WebP,
 * 1 MB at most) gets a cid and is sent only while the body shows it, hence the
 * button that puts its <img> into the HTML body.
 */
export function Attachments({
  campaignId,
  step,
  title,
  onInsert,
}: {
  campaignId: string;
  step: Step;
  title: string;
  onInsert: (tag: string) => void;
}) {
  const state = useStepFiles(campaignId, step.id);
  const { files, upload, remove, added } = state;
  const body = `${step.bodyTemplate}\n${step.bodyHtmlTemplate ?? ""}`;

  return (
    <div className="space-y-2 border-t border-gray-100 pt-3">
      <p className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Files</p>
      {files.error && <Alert tone="error">Could not load the files: {describeError(files.error)}</Alert>}
      {files.data && files.data.length > 0 && (
        <ul className="space-y-1 text-sm" aria-label={`Files of ${title}`}>
          {files.data.map((a) => (
            <FileRow key={a.id} a={a} body={body} removing={remove.isPending} onInsert={onInsert} onRemove={() => remove.mutate(a)} />
          ))}
        </ul>
      )}
      <UploadRow state={state} title={title} />
      {added?.cid && (
        <p className="text-xs text-gray-700">
          {added.filename} is inline as <code className="rounded bg-gray-100 px-1">cid:{added.cid}</code>: insert it into the HTML body and
          save the step to keep it.
        </p>
      )}
      {upload.error && <Alert tone="error">Could not attach the file: {describeError(upload.error)}</Alert>}
      {remove.error && <Alert tone="error">Could not remove the file: {describeError(remove.error)}</Alert>}
    </div>
  );
}
