"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { useCan } from "@/components/shell/member-context";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import { dateTime } from "@/components/ui/time";
import { addressList, Meta } from "./conversation";
import { ForwardButton } from "./forward-dialog";
import { formatAddress, snippet } from "./labels";
import { ListPager } from "./list-pager";
import { InboundBody } from "./message-body";
import { useUnmatched, useUnmatchedMessage, type UnmatchedPaging } from "./queries";
import type { UnmatchedRow } from "./types";

function sender(r: { from: UnmatchedRow["from"] }): string {
  return r.from ? r.from.name || r.from.address : "Unknown sender";
}

/** The folder it was found in, when that is not the INBOX (a spam folder, mostly). */
function FolderBadge({ folder }: { folder: string }) {
  if (folder.toUpperCase() === "INBOX") return null;
  return <Badge tone="yellow">{folder}</Badge>;
}

/**
 * Messages that reached a mailbox but matched no lead (not an answer to a campaign email, not from a
 * lead or a colleague of one): kept rather than dropped, newest first.
 */
export function UnmatchedList({
  paging,
  onPaging,
  selected,
  onSelect,
}: {
  paging: UnmatchedPaging;
  onPaging: (p: UnmatchedPaging) => void;
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const list = useUnmatched(paging);
  const rows = list.data?.replies ?? [];
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <p className="border-b border-gray-200 px-4 py-2 text-xs text-gray-600">
        Received mail that is not from a lead, a colleague of one, or an answer to a campaign email.
      </p>
      {list.error && (
        <Alert tone="error" className="m-3">
          Could not load unmatched messages: {describeError(list.error)}
        </Alert>
      )}
      <ul aria-label="Unmatched messages" aria-busy={list.isFetching} className="min-h-0 flex-1 divide-y divide-gray-100 overflow-y-auto">
        {rows.map((r) => (
          <li key={r.id} className={cn(r.id === selected ? "bg-indigo-50" : "bg-white")} data-testid="unmatched-row">
            <button
              type="button"
              onClick={() => onSelect(r.id)}
              aria-current={r.id === selected ? "true" : undefined}
              aria-label={`Message from ${sender(r)}: ${r.subject || "(no subject)"}`}
              className="block w-full px-4 py-2.5 text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
            >
              <div className="flex items-baseline gap-2">
                <span
                  className="min-w-0 flex-1 truncate text-sm font-medium text-gray-900"
                  title={r.from ? formatAddress(r.from) : undefined}
                >
                  {sender(r)}
                  {r.from?.name && <span className="font-normal text-gray-500"> · {r.from.address}</span>}
                </span>
                <RelativeTime iso={r.receivedAt} className="shrink-0 text-xs text-gray-500 tabular-nums" />
              </div>
              <p className="mt-0.5 truncate text-xs font-medium text-gray-800">{r.subject || "(no subject)"}</p>
              <p className="mt-0.5 line-clamp-2 text-xs text-gray-600" data-testid="unmatched-snippet">
                {snippet(r.rawBody) || <span className="italic">(no text)</span>}
              </p>
              <div className="mt-1.5 flex flex-wrap items-center gap-1 text-xs text-gray-500">
                <span className="truncate" data-testid="unmatched-mailbox">
                  to {r.mailboxEmail}
                </span>
                <FolderBadge folder={r.folder} />
              </div>
            </button>
          </li>
        ))}
        {list.isPending && <li className="px-4 py-10 text-center text-sm text-gray-500">Loading…</li>}
        {list.data && rows.length === 0 && (
          <li className="px-4 py-10 text-center text-sm text-gray-600">
            {paging.page > 1
              ? "Nothing on this page."
              : "No unmatched messages. Mail that reaches your mailboxes from someone who is not a lead shows here instead of being dropped."}
          </li>
        )}
      </ul>
      <ListPager
        page={paging.page}
        limit={paging.limit}
        total={list.data?.total ?? 0}
        noun={["message", "messages"]}
        onPage={(page) => onPaging({ ...paging, page })}
      />
    </div>
  );
}

/** One unmatched message: its headers, the body in the sandboxed frame (remote images held back), its files, and Forward. */
export function UnmatchedPane({ id, onBack }: { id: string; onBack?: () => void }) {
  const canWrite = useCan("member"); // a client seat reads only: no Forward
  const msg = useUnmatchedMessage(id);
  if (msg.isPending) return <p className="p-6 text-sm text-gray-500">Loading the message…</p>;
  if (msg.error || !msg.data)
    return (
      <Alert tone="error" className="m-4">
        Could not load the message: {describeError(msg.error)}
      </Alert>
    );
  const m = msg.data;
  const who = m.from ? formatAddress(m.from) : "Unknown sender";
  return (
    <section aria-label="Unmatched message" className="space-y-4 p-4">
      <header className="space-y-2 border-b border-gray-200 pb-3">
        {onBack && (
          <Button variant="ghost" size="sm" className="-ml-2 lg:hidden" onClick={onBack}>
            ← Unmatched
          </Button>
        )}
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 className="min-w-0 text-lg font-semibold break-words text-gray-900" data-testid="unmatched-subject">
            {m.subject || "(no subject)"}
          </h2>
          {canWrite && <ForwardButton source={m} />}
        </div>
        <p className="flex flex-wrap items-center gap-1.5 text-xs text-gray-600">
          <Badge tone="gray">Matched no lead</Badge>
          <span>
            Received in <span className="font-medium text-gray-800">{m.mailboxEmail}</span>
          </span>
          <FolderBadge folder={m.folder} />
          <span>·</span>
          <time dateTime={m.receivedAt}>{dateTime(m.receivedAt)}</time>
        </p>
      </header>
      <article
        aria-label={`Message from ${m.from?.name || m.from?.address || "unknown sender"}`}
        className="rounded-lg border border-gray-200 bg-white p-3 shadow-xs"
      >
        <div className="mb-2 space-y-1">
          <p className="truncate text-sm font-medium text-gray-900" data-testid="unmatched-from">
            {who}
          </p>
          <Meta
            rows={[
              ["To", addressList(m.to)],
              ["Cc", addressList(m.cc)],
            ]}
          />
        </div>
        <InboundBody html={m.html} text={m.rawBody} label={`Message from ${who}`} />
        {m.attachments.length > 0 && (
          <ul aria-label="Files" className="mt-3 flex flex-wrap gap-1.5">
            {m.attachments.map((f) => (
              <li key={f.id}>
                <a
                  href={`/api/v1/replies/attachments/${encodeURIComponent(f.id)}`}
                  className="inline-flex items-center gap-1 rounded-md border border-gray-200 px-2 py-1 text-xs text-gray-700 hover:bg-gray-50"
                  download={f.filename}
                >
                  {f.filename} <span className="text-gray-500">({Math.max(1, Math.round(f.size / 1024))} KB)</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </article>
    </section>
  );
}
