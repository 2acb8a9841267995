"use client";

import { ReplyNotes } from "./reply-notes";
import { useEffect, useRef } from "react";
import { describeError } from "@/components/api-client";
import { useCan, useMember } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { dateTime } from "@/components/ui/time";
import { AssigneeControl } from "./assignee";
import { Composer } from "./composer";
import { ForwardButton } from "./forward-dialog";
import { formatAddress, INTENT_LABEL, INTENT_TONE, personName, SENT_BY_LABEL } from "./labels";
import { InboundBody, TextBody } from "./message-body";
import { useConversation, useMarkRead, useRetry, useStar } from "./queries";
import { ReminderBadge, RemindControl, StarButton } from "./reply-controls";
import type { Address, CampaignMessage, InboundMessage, Message, ReplyMessage } from "./types";

export function addressList(a: Address[] | null | undefined): string {
  return (a ?? []).map(formatAddress).join(", ");
}

/** The conversation and its effects: marked read on open and when a new reply arrives, and scrolled to its newest message. */
function useConversationPane(leadId: string, canWrite: boolean) {
  const convo = useConversation(leadId);
  const markRead = useMarkRead();
  const data = convo.data;
  const inbound = (data?.messages.filter((m) => m.direction === "inbound") ?? []) as InboundMessage[];
  const latest = inbound.at(-1);

  // Read on open, and again when a new reply arrives while it is open.
  const marked = useRef<string>(undefined);
  const mark = markRead.mutate;
  useEffect(() => {
    if (!canWrite || !data || data.lead.id !== leadId) return;
    const key = `${leadId}:${inbound.length}`;
    if (marked.current === key) return;
    marked.current = key;
    mark(leadId);
  }, [canWrite, data, leadId, inbound.length, mark]);

  // The newest message in view when a conversation opens.
  const end = useRef<HTMLDivElement>(null);
  const scrolledFor = useRef<string>(undefined);
  useEffect(() => {
    if (data && scrolledFor.current !== leadId) {
      scrolledFor.current = leadId;
      end.current?.scrollIntoView({ block: "end" });
    }
  }, [data, leadId]);

  return { convo, markRead, latest, end };
}

type Conversation = NonNullable<ReturnType<typeof useConversation>["data"]>;

/** Who the conversation is with, the latest reply's intent, its assignee and reminder. */
function ConversationHeader({
  data,
  leadId,
  latest,
  canWrite,
  onBack,
}: {
  data: Conversation;
  leadId: string;
  latest: InboundMessage | undefined;
  canWrite: boolean;
  onBack?: () => void;
}) {
  const lead = data.lead;
  return (
    <header className="flex flex-wrap items-start justify-between gap-3 border-b border-gray-200 pb-3">
      <div className="min-w-0">
        {onBack && (
          <Button variant="ghost" size="sm" className="mb-1 -ml-2 lg:hidden" onClick={onBack}>
            ← Conversations
          </Button>
        )}
        <h2 className="truncate text-lg font-semibold text-gray-900" data-testid="conversation-title">
          {personName(lead)}
        </h2>
        <p className="truncate text-sm text-gray-600">
          {lead.email}
          {lead.companyName && ` · ${lead.companyName}`}
        </p>
      </div>
      {latest && (
        <Badge tone={INTENT_TONE[latest.intentClassification]} className="mt-1">
          <span data-testid="conversation-intent">{INTENT_LABEL[latest.intentClassification]}</span>
        </Badge>
      )}
      <div className="flex w-full flex-wrap items-center justify-between gap-2">
        <AssigneeControl leadId={leadId} assignee={data.assignee} />
        {latest && canWrite && <RemindControl key={latest.id} replyId={latest.id} remindAt={latest.remindAt} />}
        {latest && !canWrite && latest.remindAt && <ReminderBadge remindAt={latest.remindAt} />}
      </div>
    </header>
  );
}

/**
 * The open conversation: who handles it, every message oldest first, then the composer. Opening it
 * marks it read. A client seat reads it only: no composer, star, forward, reminder or assignment.
 */
export function ConversationPane({ leadId, onBack }: { leadId: string; onBack?: () => void }) {
  const canWrite = useCan("member");
  const { convo, markRead, latest, end } = useConversationPane(leadId, canWrite);
  const data = convo.data;

  if (convo.isPending) return <p className="p-6 text-sm text-gray-500">Loading the conversation…</p>;
  if (convo.error || !data)
    return (
      <Alert tone="error" className="m-4">
        Could not load the conversation: {describeError(convo.error)}
      </Alert>
    );

  return (
    <section aria-label="Conversation" className="space-y-4 p-4">
      <ConversationHeader data={data} leadId={leadId} latest={latest} canWrite={canWrite} onBack={onBack} />
      {markRead.error && <Alert tone="error">Could not mark the conversation read: {describeError(markRead.error)}</Alert>}

      <ol aria-label="Messages" className="space-y-3">
        {data.messages.map((m) => (
          <li key={`${m.direction}-${m.direction === "outbound" ? m.kind : "in"}-${m.id}`}>
            <MessageCard m={m} leadId={leadId} />
          </li>
        ))}
      </ol>
      <div ref={end} />

      {!canWrite ? (
        <p className="text-sm text-gray-600" data-testid="read-only-note">
          Your seat is read-only: you can read this conversation but not answer it.
        </p>
      ) : latest ? (
        <Composer key={leadId} leadId={leadId} replyTo={latest} fallbackTo={data.lead.email} />
      ) : (
        <p className="text-sm text-gray-600">Nothing received from this lead yet, so there is nothing to answer.</p>
      )}
    </section>
  );
}

function MessageCard({ m, leadId }: { m: Message; leadId: string }) {
  if (m.direction === "inbound") return <Inbound m={m} />;
  if (m.kind === "campaign") return <CampaignEmail m={m} />;
  return <OwnReply m={m} leadId={leadId} />;
}

export function Meta({ rows }: { rows: [string, string | null | undefined][] }) {
  return (
    <dl className="grid grid-cols-[3rem_1fr] gap-x-2 text-xs text-gray-600">
      {rows
        .filter(([, v]) => v)
        .map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-gray-500">{k}</dt>
            <dd className="min-w-0 break-words">{v}</dd>
          </div>
        ))}
    </dl>
  );
}

function Inbound({ m }: { m: InboundMessage }) {
  const canWrite = useCan("member");
  const star = useStar();
  const who = m.from ? formatAddress(m.from) : "Unknown sender";
  return (
    <article
      aria-label={`Message from ${m.from?.name || m.from?.address || "unknown sender"}`}
      className="rounded-lg border border-gray-200 bg-white p-3 shadow-xs"
    >
      <div className="mb-2 flex items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="truncate text-sm font-medium text-gray-900" title={who}>
            {who}
          </p>
          <Meta
            rows={[
              ["To", addressList(m.to)],
              ["Cc", addressList(m.cc)],
            ]}
          />
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Badge tone={INTENT_TONE[m.intentClassification]}>{INTENT_LABEL[m.intentClassification]}</Badge>
          {m.remindAt && <ReminderBadge remindAt={m.remindAt} />}
          <time dateTime={m.timestamp} className="text-xs whitespace-nowrap text-gray-500">
            {dateTime(m.timestamp)}
          </time>
          {canWrite ? (
            <>
              <StarButton
                starred={m.starred}
                pending={star.isPending}
                label="this message"
                onClick={() => star.mutate({ replyId: m.id, starred: !m.starred })}
              />
              <ForwardButton source={m} />
            </>
          ) : (
            m.starred && (
              <span className="text-lg leading-none text-yellow-500" title="Starred">
                ★
              </span>
            )
          )}
        </div>
      </div>
      <p className="mb-2 text-sm font-semibold text-gray-900">{m.subject || "(no subject)"}</p>
      {star.error && <p className="mb-2 text-xs text-red-700">Could not change the star: {describeError(star.error)}</p>}
      <InboundBody html={m.html} text={m.body} label={`Message from ${who}`} />
      <ReplyNotes m={m} />
    </article>
  );
}

const EMAIL_STATUS_TONE = { SENT: "green", SENDING: "yellow", BOUNCED: "red", FAILED: "red" } as const;

function CampaignEmail({ m }: { m: CampaignMessage }) {
  return (
    <article aria-label={`Campaign email: ${m.subject}`} className="ml-6 rounded-lg border border-indigo-100 bg-indigo-50/50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-gray-600">
          <span className="font-medium text-gray-800">Campaign email</span>
          {m.campaign?.name && ` · ${m.campaign.name}`}
          {m.stepOrder !== null && ` · step ${m.stepOrder + 1}`} · from {m.mailboxEmail} to {addressList(m.to)}
        </p>
        <span className="flex items-center gap-1">
          <Badge tone={EMAIL_STATUS_TONE[m.status]}>{m.status === "BOUNCED" ? "Bounced" : m.status === "SENT" ? "Sent" : m.status}</Badge>
          <time dateTime={m.timestamp} className="text-xs whitespace-nowrap text-gray-500">
            {dateTime(m.timestamp)}
          </time>
        </span>
      </div>
      <p className="mt-1 text-sm font-medium text-gray-900">{m.subject || "(no subject)"}</p>
    </article>
  );
}

/** Who sent one of our replies: the team member (from the dashboard), else the API, an agent or a person's mail client. */
function sentByText(m: ReplyMessage, me: string | undefined): string {
  if (!m.sentByUser) return SENT_BY_LABEL[m.sentBy];
  return m.sentByUser.userId === me ? `${m.sentByUser.name} (you)` : m.sentByUser.name;
}

function OwnReply({ m, leadId }: { m: ReplyMessage; leadId: string }) {
  const canWrite = useCan("member");
  const me = useMember()?.userId;
  const retry = useRetry(leadId);
  const by = sentByText(m, me);
  return (
    <article
      aria-label={`Reply sent by ${by}`}
      className={cn(
        "ml-6 rounded-lg border p-3",
        m.status === "FAILED" ? "border-red-200 bg-red-50/40" : "border-indigo-100 bg-indigo-50/50",
      )}
    >
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="text-sm font-medium text-gray-900">
            {m.mailboxEmail}{" "}
            <span className="font-normal text-gray-500" data-testid="sent-by">
              · sent by {by}
            </span>
          </p>
          <Meta
            rows={[
              ["To", addressList(m.to)],
              ["Cc", addressList(m.cc)],
              ["Bcc", addressList(m.bcc)],
            ]}
          />
        </div>
        <span className="flex items-center gap-1">
          <span data-testid="reply-status">
            {m.status === "SENDING" && <Badge tone="yellow">Sending…</Badge>}
            {m.status === "SENT" && <Badge tone="green">Sent</Badge>}
            {m.status === "FAILED" && <Badge tone="red">Failed</Badge>}
          </span>
          <time dateTime={m.timestamp} className="text-xs whitespace-nowrap text-gray-500">
            {dateTime(m.timestamp)}
          </time>
        </span>
      </div>
      <TextBody text={m.body} />
      {m.status === "FAILED" && (
        <Alert tone="error" className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <span data-testid="reply-error">Not sent: {m.error ?? "the mail server did not accept it"}</span>
          {canWrite && (
            <Button variant="secondary" size="sm" disabled={retry.isPending} onClick={() => retry.mutate(m.id)}>
              {retry.isPending ? "Retrying…" : "Retry"}
            </Button>
          )}
        </Alert>
      )}
      {retry.error && <p className="mt-1 text-xs text-red-700">Could not retry: {describeError(retry.error)}</p>}
    </article>
  );
}
