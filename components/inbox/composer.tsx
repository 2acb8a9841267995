"use client";

import Link from "next/link";
import { type ReactNode, useId, useState } from "react";
import { ApiError, describeError, smtpCodeOf } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { formatAddresses, parseAddresses } from "./addresses";
import { useDraftReply, useSendReply } from "./queries";
import type { Address, InboundMessage, SendInput } from "./types";

/** The API's messages for one address field: "to" itself and each "to.3". */
function errorsFor(e: unknown, field: string): string[] | undefined {
  if (!(e instanceof ApiError)) return undefined;
  const out = Object.entries(e.fieldErrors).flatMap(([k, v]) =>
    k === field ? v : k.startsWith(field + ".") ? v.map((m) => `#${Number(k.split(".")[1]) + 1}: ${m}`) : [],
  );
  return out.length ? out : undefined;
}

const lower = (a: Address) => a.address.toLowerCase();

/** Everyone else on the message answered, for "Reply all": its other recipients minus our own mailbox. */
function othersOf(m: InboundMessage): Address[] {
  const skip = new Set([m.mailboxEmail.toLowerCase(), ...(m.from ? [lower(m.from)] : [])]);
  const seen = new Set<string>();
  return [...m.to, ...m.cc].filter((a) => {
    const k = lower(a);
    if (skip.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** How a draft was made, as the composer says it: "AI draft", or a template draft with where to set a provider. */
function DraftLabel({ agent, generatedBy }: { agent: { name: string } | null; generatedBy: "template" | "ai" }) {
  if (agent) {
    const how = generatedBy === "ai" ? "AI draft" : "Template draft (no AI answer)";
    return <span data-testid="draft-label">{`${how} by ${agent.name} from its knowledge: review it before sending.`}</span>;
  }
  if (generatedBy === "ai") return <span data-testid="draft-label">AI draft: review it before sending.</span>;
  return (
    <span data-testid="draft-label">
      Template draft — no AI provider configured.{" "}
      <Link href="/settings/ai" className="font-medium underline">
        Set one in Settings → AI
      </Link>
      . Review it before sending.
    </span>
  );
}

/**
 * The answer to a conversation, threaded to its latest received message (POST /replies/<id>/send):
 * addressed to that message's writer unless changed, sent now or queued ("send in background").
 * The server's refusal (a 502 carries the mail server's own reason) shows right here.
 */
export function Composer({ leadId, replyTo, fallbackTo }: { leadId: string; replyTo: InboundMessage; fallbackTo: string }) {
  const send = useSendReply(leadId);
  const drafting = useDraftReply();
  const bodyId = useId();
  const initialTo = replyTo.from ? [replyTo.from] : [{ name: null, address: fallbackTo }];
  const [to, setTo] = useState(() => formatAddresses(initialTo));
  const [cc, setCc] = useState("");
  const [bcc, setBcc] = useState("");
  const [showCopies, setShowCopies] = useState(false);
  const [body, setBody] = useState("");
  const [background, setBackground] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [notice, setNotice] = useState<ReactNode>();
  const others = othersOf(replyTo);

  /**
   * Fills the message with a draft (the reply agent's grounded answer in an agent's campaign) for the
   * user to edit and send, saying how it was made: by the AI provider, or by the built-in template.
   */
  function draft() {
    setNotice(undefined);
    drafting.mutate(replyTo.id, {
      onSuccess: (d) => {
        setBody(d.draft.body);
        setNotice(<DraftLabel agent={d.agent} generatedBy={d.generatedBy} />);
      },
    });
  }

  function submit() {
    setNotice(undefined);
    const parsed = { to: parseAddresses(to), cc: parseAddresses(cc), bcc: parseAddresses(bcc) };
    const bad = [...parsed.to.invalid, ...parsed.cc.invalid, ...parsed.bcc.invalid];
    setInvalid(bad);
    if (bad.length) return;
    const input: SendInput = { body };
    if (parsed.to.list.length) input.to = parsed.to.list;
    if (parsed.cc.list.length) input.cc = parsed.cc.list;
    if (parsed.bcc.list.length) input.bcc = parsed.bcc.list;
    if (background) input.background = true;
    send.mutate(
      { replyId: replyTo.id, input },
      {
        onSuccess: (r) => {
          setBody("");
          setNotice("queued" in r ? "Queued: it is being sent in the background." : "Sent.");
        },
      },
    );
  }

  const smtpCode = smtpCodeOf(send.error);
  return (
    <form
      aria-label="Reply"
      className="space-y-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-gray-900">
          Reply <span className="font-normal text-gray-500">from {replyTo.mailboxEmail}</span>
        </h2>
        <div className="flex gap-1">
          <Button variant="ghost" size="sm" disabled={drafting.isPending} onClick={draft}>
            {drafting.isPending ? "Drafting…" : "Draft reply"}
          </Button>
          {others.length > 0 && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const current = parseAddresses(cc).list;
                setCc(formatAddresses([...current, ...others.filter((o) => !current.some((a) => lower(a) === lower(o)))]));
                setShowCopies(true);
              }}
            >
              Reply all
            </Button>
          )}
          {!showCopies && (
            <Button variant="ghost" size="sm" onClick={() => setShowCopies(true)}>
              Cc / Bcc
            </Button>
          )}
        </div>
      </div>
      <Field label="To" errors={errorsFor(send.error, "to")}>
        <Input value={to} onChange={(e) => setTo(e.target.value)} placeholder={fallbackTo} autoComplete="off" />
      </Field>
      {(showCopies || cc || bcc) && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Cc" errors={errorsFor(send.error, "cc")}>
            <Input value={cc} onChange={(e) => setCc(e.target.value)} autoComplete="off" />
          </Field>
          <Field label="Bcc" errors={errorsFor(send.error, "bcc")}>
            <Input value={bcc} onChange={(e) => setBcc(e.target.value)} autoComplete="off" />
          </Field>
        </div>
      )}
      {/* Not inside its <label>: a textarea's text would become part of the label's text. */}
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
              if (body.trim() && !send.isPending) submit();
            }
          }}
        />
        {errorsFor(send.error, "body")?.map((m) => (
          <p key={m} className="text-xs text-red-700">
            {m}
          </p>
        ))}
      </div>
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
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="inline-flex items-center gap-1.5 text-sm text-gray-700">
          <input type="checkbox" checked={background} onChange={(e) => setBackground(e.target.checked)} />
          Send in background
        </label>
        <Button type="submit" disabled={send.isPending || !body.trim()}>
          {send.isPending ? "Sending…" : "Send"}
        </Button>
      </div>
    </form>
  );
}
