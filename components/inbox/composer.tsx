"use client";

import { useId } from "react";
import { ApiError, describeError, smtpCodeOf } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { InboundMessage } from "./types";
import { type ComposerState, useComposer } from "./use-composer";

/** The API's messages for one address field: "to" itself and each "to.3". */
function errorsFor(e: unknown, field: string): string[] | undefined {
  if (!(e instanceof ApiError)) return undefined;
  const out = Object.entries(e.fieldErrors).flatMap(([k, v]) =>
    k === field ? v : k.startsWith(field + ".") ? v.map((m) => `#${Number(k.split(".")[1]) + 1}: ${m}`) : [],
  );
  return out.length ? out : undefined;
}

/** The composer's title with the mailbox it sends from, and its Draft reply, Reply all and Cc / Bcc buttons. */
function ComposerHeader({ c, mailboxEmail }: { c: ComposerState; mailboxEmail: string }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <h2 className="text-sm font-semibold text-gray-900">
        Reply <span className="font-normal text-gray-500">from {mailboxEmail}</span>
      </h2>
      <div className="flex gap-1">
        <Button variant="ghost" size="sm" disabled={c.drafting.isPending} onClick={c.draft}>
          {c.drafting.isPending ? "Drafting…" : "Draft reply"}
        </Button>
        {c.hasOthers && (
          <Button variant="ghost" size="sm" onClick={c.replyAll}>
            Reply all
          </Button>
        )}
        {!c.showCopies && (
          <Button variant="ghost" size="sm" onClick={() => c.setShowCopies(true)}>
            Cc / Bcc
          </Button>
        )}
      </div>
    </div>
  );
}

/** To, and Cc and Bcc once asked for or filled in. */
function AddressFields({ c, fallbackTo }: { c: ComposerState; fallbackTo: string }) {
  const { to, setTo, cc, setCc, bcc, setBcc } = c.fields;
  const error = c.send.error;
  return (
    <>
      <Field label="To" errors={errorsFor(error, "to")}>
        <Input value={to} onChange={(e) => setTo(e.target.value)} placeholder={fallbackTo} autoComplete="off" />
      </Field>
      {(c.showCopies || cc || bcc) && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Cc" errors={errorsFor(error, "cc")}>
            <Input value={cc} onChange={(e) => setCc(e.target.value)} autoComplete="off" />
          </Field>
          <Field label="Bcc" errors={errorsFor(error, "bcc")}>
            <Input value={bcc} onChange={(e) => setBcc(e.target.value)} autoComplete="off" />
          </Field>
        </div>
      )}
    </>
  );
}

/** The message, sent with Ctrl/⌘+Enter too. */
function MessageField({ c }: { c: ComposerState }) {
  const bodyId = useId();
  const { body, setBody } = c.fields;
  return (
    // Not inside its <label>: a textarea's text would become part of the label's text.
    <div className="space-y-1">
      <label htmlFor={bodyId} className="block text-sm font-medium text-gray-700">
        Message
      </label>
      <Textarea
        id={bodyId}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        rows={6}
        required
        placeholder="Write your answer…"
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            if (body.trim() && !c.send.isPending) c.submit();
          }
        }}
      />
      {errorsFor(c.send.error, "body")?.map((m) => (
        <p key={m} className="text-xs text-red-700">
          {m}
        </p>
      ))}
    </div>
  );
}

/** Bad addresses, the send or draft error (a 502 with the mail server's own reason), or what was done. */
function ComposerAlerts({ c }: { c: ComposerState }) {
  const { send, drafting, invalid, notice } = c;
  const smtpCode = smtpCodeOf(send.error);
  return (
    <>
      {invalid.length > 0 && (
        <Alert tone="error">Not an email address: {invalid.map((s) => `“${s}”`).join(", ")}. Separate addresses with commas.</Alert>
      )}
      {send.error && (
        <Alert tone="error">
          <span data-testid="send-error">
            {send.error instanceof ApiError && send.error.status === 502
              ? `The mail server refused the reply${smtpCode ? ` (${smtpCode})` : ""}: ${send.error.message}`
              : `Could not send: ${describeError(send.error)}`}
          </span>
        </Alert>
      )}
      {drafting.error && <Alert tone="error">Could not draft: {describeError(drafting.error)}</Alert>}
      {notice && !send.error && (
        <Alert tone="success">
          <span data-testid="send-notice">{notice}</span>
        </Alert>
      )}
    </>
  );
}

/**
 * The answer to a conversation, threaded to its latest received message (POST /replies/<id>/send):
 * addressed to that message's writer unless changed, sent now or queued ("send in background").
 * The server's refusal (a 502 carries the mail server's own reason) shows right here.
 */
export function Composer({ leadId, replyTo, fallbackTo }: { leadId: string; replyTo: InboundMessage; fallbackTo: string }) {
  const c = useComposer(leadId, replyTo, fallbackTo);
  const { body, background, setBackground } = c.fields;
  return (
    <form
      aria-label="Reply"
      className="space-y-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        c.submit();
      }}
    >
      <ComposerHeader c={c} mailboxEmail={replyTo.mailboxEmail} />
      <AddressFields c={c} fallbackTo={fallbackTo} />
      <MessageField c={c} />
      <ComposerAlerts c={c} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="inline-flex items-center gap-1.5 text-sm text-gray-700">
          <input type="checkbox" checked={background} onChange={(e) => setBackground(e.target.checked)} />
          Send in background
        </label>
        <Button type="submit" disabled={c.send.isPending || !body.trim()}>
          {c.send.isPending ? "Sending…" : "Send"}
        </Button>
      </div>
    </form>
  );
}
