"use client";

import { useId, useState, type FormEvent } from "react";
import { ApiError, describeError, smtpCodeOf } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { parseAddresses } from "./addresses";
import { formatAddress } from "./labels";
import { useForward } from "./queries";
import type { Address, ForwardInput } from "./types";

/** What the dialog says about the message it forwards. */
export interface ForwardSource {
  id: string;
  subject: string;
  from: Address | null;
  mailboxEmail: string;
  attachments?: { filename: string }[];
}

/** The API's messages about `to` (the field itself, `to.0` from the address check, `to.address`). */
function toErrors(e: unknown): string[] {
  if (!(e instanceof ApiError)) return [];
  return Object.entries(e.fieldErrors).flatMap(([k, v]) => (k === "to" || k.startsWith("to.") ? v : []));
}

/** "Forward" on a received message: opens the dialog, which starts empty every time. */
export function ForwardButton({ source, className }: { source: ForwardSource; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" className={className} onClick={() => setOpen(true)}>
        Forward
      </Button>
      {open && <ForwardDialog source={source} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The forward form's address and note, the check that it names one address, and the call. */
function useForwardForm(source: ForwardSource) {
  const forward = useForward();
  const [to, setTo] = useState("");
  const [note, setNote] = useState("");
  const [invalid, setInvalid] = useState<string>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseAddresses(to);
    if (parsed.invalid.length || parsed.list.length !== 1) {
      setInvalid(
        parsed.list.length + parsed.invalid.length > 1 ? "Forward to one address at a time." : `Not an email address: “${to.trim()}”.`,
      );
      return;
    }
    setInvalid(undefined);
    const [a] = parsed.list;
    const input: ForwardInput = { to: a.name ? { name: a.name, address: a.address } : a.address };
    if (note.trim()) input.body = note.trim();
    forward.mutate({ replyId: source.id, input });
  }
  const fieldErrors = [...(invalid ? [invalid] : []), ...toErrors(forward.error)];
  return { forward, to, setTo, note, setNote, setInvalid, submit, fieldErrors };
}

/** Why the forward failed, when it is not about the address: the mail server's own words and code, or the API's. */
function ForwardError({ err }: { err: unknown }) {
  const code = smtpCodeOf(err);
  return (
    <Alert tone="error">
      <span data-testid="forward-error">
        {err instanceof ApiError && err.status === 502
          ? `The mail server refused it${code ? ` (${code})` : ""}: ${err.message}`
          : `Could not forward: ${describeError(err)}`}
      </span>
    </Alert>
  );
}

/** The address to forward to and the optional note. */
function ForwardForm({ formId, form }: { formId: string; form: ReturnType<typeof useForwardForm> }) {
  const noteId = useId();
  const { forward, fieldErrors } = form;
  const err = forward.error;
  return (
    <form id={formId} aria-label="Forward" onSubmit={form.submit} className="space-y-3">
      <Field label="To" errors={fieldErrors.length ? fieldErrors : undefined}>
        <Input
          value={form.to}
          onChange={(e) => {
            form.setTo(e.target.value);
            form.setInvalid(undefined);
          }}
          placeholder="colleague@example.com"
          autoComplete="off"
          autoFocus
          required
          disabled={forward.isPending}
          aria-invalid={fieldErrors.length > 0 || undefined}
        />
      </Field>
      <div className="space-y-1">
        <label htmlFor={noteId} className="block text-sm font-medium text-gray-700">
          Note <span className="font-normal text-gray-500">(optional, above the forwarded message)</span>
        </label>
        <Textarea
          id={noteId}
          value={form.note}
          onChange={(e) => form.setNote(e.target.value)}
          rows={3}
          maxLength={200_000}
          disabled={forward.isPending}
        />
      </div>
      {err && toErrors(err).length === 0 && <ForwardError err={err} />}
    </form>
  );
}

/**
 * POST /replies/<id>/forward: the original (text, HTML and files) as "Fwd: …" from the mailbox it
 * arrived in, to one address, with an optional note above it. The mail server's refusal (502) shows
 * with its own words and code.
 */
export function ForwardDialog({ source, onClose }: { source: ForwardSource; onClose: () => void }) {
  const form = useForwardForm(source);
  const { forward } = form;
  const formId = useId();

  const done = forward.data;
  const files = source.attachments?.length ?? 0;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Forward message"
      footer={
        done ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <FormFooter
            form={formId}
            pending={forward.isPending}
            disabled={!form.to.trim()}
            onCancel={onClose}
            submitLabel="Forward"
            pendingLabel="Forwarding…"
          />
        )
      }
    >
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          <span className="font-medium text-gray-900">{source.subject || "(no subject)"}</span>
          {source.from && ` from ${formatAddress(source.from)}`}, sent on as “Fwd:” from{" "}
          <span className="font-medium">{source.mailboxEmail}</span>
          {files > 0 && `, with its ${files === 1 ? "file" : `${files} files`}`}.
        </p>
        {done ? (
          <Alert tone="success">
            <span data-testid="forward-notice">Forwarded to {done.to}.</span>
          </Alert>
        ) : (
          <ForwardForm formId={formId} form={form} />
        )}
      </div>
    </Dialog>
  );
}
