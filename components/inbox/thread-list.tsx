"use client";

import { describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Chip } from "@/components/ui/chip";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { AssigneeText } from "./assignee";
import { INTENT_LABEL, INTENT_ORDER, INTENT_TONE, personName, snippet } from "./labels";
import { ListPager } from "./list-pager";
import { type AssigneeFilter, useCampaignOptions, useIntentCounts, useStar, useThreads, type ThreadFilters } from "./queries";
import { ReminderBadge, StarButton } from "./reply-controls";
import type { Thread } from "./types";

const ASSIGNEE_FILTERS: [AssigneeFilter, string][] = [
  ["", "All"],
  ["me", "Assigned to me"],
  ["none", "Unassigned"],
];

export function ThreadFiltersBar({ filters, onChange }: { filters: ThreadFilters; onChange: (f: ThreadFilters) => void }) {
  const canWrite = useCan("member");
  const counts = useIntentCounts({
    assignee: filters.assignee,
    unread: filters.unread,
    starred: filters.starred,
    campaignId: filters.campaignId,
  });
  const campaigns = useCampaignOptions();
  const set = (patch: Partial<ThreadFilters>) => onChange({ ...filters, ...patch, page: 1 });
  return (
    <div className="space-y-2 border-b border-gray-200 p-3">
      <fieldset aria-label="Assignee" className="flex min-w-0 flex-wrap gap-1.5">
        {/* A client seat is never assigned a conversation: "Assigned to me" would always be empty. */}
        {ASSIGNEE_FILTERS.filter(([value]) => canWrite || value !== "me").map(([value, label]) => (
          <Chip key={value || "all"} pressed={filters.assignee === value} onClick={() => set({ assignee: value })}>
            {label}
          </Chip>
        ))}
      </fieldset>
      <fieldset aria-label="Intent" className="flex min-w-0 flex-wrap gap-1.5">
        <Chip pressed={filters.intent === ""} count={counts.data?.all} onClick={() => set({ intent: "" })}>
          All
        </Chip>
        {INTENT_ORDER.map((i) => (
          <Chip
            key={i}
            pressed={filters.intent === i}
            count={counts.data?.intents[i]}
            onClick={() => set({ intent: filters.intent === i ? "" : i })}
          >
            {INTENT_LABEL[i]}
          </Chip>
        ))}
      </fieldset>
      <div className="flex flex-wrap items-center gap-1.5">
        {/* Its count is what pressing it would list, so it is left out while an intent narrows the list. */}
        <Chip
          pressed={filters.unread}
          count={filters.intent ? undefined : counts.data?.unread}
          onClick={() => set({ unread: !filters.unread })}
        >
          Unread
        </Chip>
        <Chip pressed={filters.starred} onClick={() => set({ starred: !filters.starred })}>
          ★ Starred
        </Chip>
        <Select
          aria-label="Campaign"
          value={filters.campaignId}
          onChange={(e) => set({ campaignId: e.target.value })}
          className="h-7 w-auto max-w-48 min-w-0 flex-1 text-xs"
        >
          <option value="">All campaigns</option>
          {campaigns.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </div>
      {counts.error && <p className="text-xs text-red-700">Could not count by intent: {describeError(counts.error)}</p>}
    </div>
  );
}

export function ThreadList({
  filters,
  onChange,
  selected,
  onSelect,
}: {
  filters: ThreadFilters;
  onChange: (f: ThreadFilters) => void;
  selected: string | undefined;
  onSelect: (leadId: string) => void;
}) {
  const threads = useThreads(filters);
  const star = useStar();
  const rows = threads.data?.threads ?? [];
  const total = threads.data?.total ?? 0;
  const filtered = filters.intent || filters.assignee || filters.unread || filters.starred || filters.campaignId;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {threads.error && (
        <Alert tone="error" className="m-3">
          Could not load conversations: {describeError(threads.error)}
        </Alert>
      )}
      {star.error && (
        <Alert tone="error" className="m-3">
          Could not change the star: {describeError(star.error)}
        </Alert>
      )}
      <ul aria-label="Conversations" aria-busy={threads.isFetching} className="min-h-0 flex-1 divide-y divide-gray-100 overflow-y-auto">
        {rows.map((t) => (
          <ThreadRow
            key={t.leadId}
            t={t}
            selected={t.leadId === selected}
            onSelect={() => onSelect(t.leadId)}
            starPending={star.isPending && star.variables?.replyId === t.latestReply.id}
            onStar={() => star.mutate({ replyId: t.latestReply.id, starred: !t.latestReply.starred })}
          />
        ))}
        {threads.isPending && <li className="px-4 py-10 text-center text-sm text-gray-500">Loading…</li>}
        {threads.data && rows.length === 0 && (
          <li className="px-4 py-10 text-center text-sm text-gray-600">
            {filtered ? "No conversations match these filters." : "No replies yet. Replies to your campaigns show here as they arrive."}
          </li>
        )}
      </ul>
      <ListPager
        page={filters.page}
        limit={filters.limit}
        total={total}
        noun={["conversation", "conversations"]}
        onPage={(page) => onChange({ ...filters, page })}
      />
    </div>
  );
}

function ThreadRow({
  t,
  selected,
  onSelect,
  onStar,
  starPending,
}: {
  t: Thread;
  selected: boolean;
  onSelect: () => void;
  onStar: () => void;
  starPending: boolean;
}) {
  const canWrite = useCan("member");
  const name = personName(t.lead);
  const r = t.latestReply;
  const unread = t.unreadCount > 0;
  return (
    <li className={cn("relative", selected ? "bg-indigo-50" : unread ? "bg-white" : "bg-gray-50/40")} data-testid="conversation-row">
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? "true" : undefined}
        aria-label={`Conversation with ${name}${unread ? `, ${t.unreadCount} unread` : ""}`}
        className="block w-full py-2.5 pr-10 pl-4 text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      >
        <div className="flex items-baseline gap-2">
          {unread && <span className="h-2 w-2 shrink-0 self-center rounded-full bg-indigo-600" aria-hidden />}
          <span className={cn("min-w-0 flex-1 truncate text-sm", unread ? "font-semibold text-gray-900" : "text-gray-800")}>
            {name}
            {t.lead?.companyName && <span className="font-normal text-gray-500"> · {t.lead.companyName}</span>}
          </span>
          <RelativeTime iso={r.receivedAt} className="shrink-0 text-xs text-gray-500 tabular-nums" />
        </div>
        <p className={cn("mt-0.5 truncate text-xs", unread ? "font-medium text-gray-900" : "text-gray-700")}>
          {r.subject || "(no subject)"}
        </p>
        <p className="mt-0.5 line-clamp-2 text-xs text-gray-600" data-testid="conversation-snippet">
          {snippet(r.rawBody) || <span className="italic">(no text)</span>}
        </p>
        <div className="mt-1.5 flex flex-wrap items-center gap-1">
          <Badge tone={INTENT_TONE[r.intentClassification]} className="intent">
            {INTENT_LABEL[r.intentClassification]}
          </Badge>
          {unread && (
            <Badge tone="indigo" className="tabular-nums">
              {t.unreadCount} unread
            </Badge>
          )}
          {t.answered && <Badge tone="gray">Answered</Badge>}
          {r.remindAt && <ReminderBadge remindAt={r.remindAt} />}
          {t.campaign && <span className="truncate text-xs text-gray-500">{t.campaign.name}</span>}
          {t.replyCount > 1 && <span className="text-xs text-gray-500">· {t.replyCount} replies</span>}
          {t.assignee && <AssigneeText assignee={t.assignee} className="truncate text-xs text-gray-600" />}
        </div>
      </button>
      {canWrite ? (
        <StarButton
          className="absolute top-2 right-2"
          starred={r.starred}
          pending={starPending}
          label={`conversation with ${name}`}
          onClick={onStar}
        />
      ) : (
        r.starred && (
          <span className="absolute top-2 right-3 text-lg leading-none text-yellow-500" title="Starred">
            ★
          </span>
        )
      )}
    </li>
  );
}
