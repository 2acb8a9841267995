"use client";

import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ConversationPane } from "./conversation";
import { useUnmatchedCount, useUnreadCount, type ThreadFilters, type UnmatchedPaging } from "./queries";
import { ThreadFiltersBar, ThreadList } from "./thread-list";
import { UnmatchedList, UnmatchedPane } from "./unmatched";

const DEFAULT_FILTERS: ThreadFilters = { intent: "", assignee: "", unread: false, starred: false, campaignId: "", page: 1, limit: 50 };
const DEFAULT_UNMATCHED: UnmatchedPaging = { page: 1, limit: 50 };

export type InboxViewName = "conversations" | "unmatched";

/** What the inbox shows (view, filters, paging, the open conversation or message), kept in the address as it changes. */
function useInboxState(initialView: InboxViewName, initialLeadId: string | undefined, initialMessageId: string | undefined) {
  const [view, setView] = useState<InboxViewName>(initialView);
  const [filters, setFilters] = useState(DEFAULT_FILTERS);
  const [selected, setSelected] = useState(initialLeadId);
  const [unmatchedPaging, setUnmatchedPaging] = useState(DEFAULT_UNMATCHED);
  const [message, setMessage] = useState(initialMessageId);

  useEffect(() => {
    const url = new URL(window.location.href);
    const set = (k: string, v: string | undefined) => (v ? url.searchParams.set(k, v) : url.searchParams.delete(k));
    set("view", view === "unmatched" ? "unmatched" : undefined);
    set("lead", view === "conversations" ? selected : undefined);
    set("message", view === "unmatched" ? message : undefined);
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [view, selected, message]);

  return { view, setView, filters, setFilters, selected, setSelected, unmatchedPaging, setUnmatchedPaging, message, setMessage };
}

type InboxState = ReturnType<typeof useInboxState>;

/** The page title with the count of unread replies. */
function InboxHeader() {
  const unread = useUnreadCount();
  const u = unread.data;
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-6 py-3">
      <h1 className="text-xl font-semibold text-gray-900">Inbox</h1>
      {u && (
        <Badge tone={u.messages > 0 ? "indigo" : "gray"} className="tabular-nums">
          <span
            data-testid="inbox-unread"
            title={`${u.messages} unread ${u.messages === 1 ? "reply" : "replies"} in ${u.conversations} ${u.conversations === 1 ? "conversation" : "conversations"}`}
          >
            {u.messages === 0 ? "All read" : `${u.messages.toLocaleString()} unread`}
          </span>
        </Badge>
      )}
      {unread.error && <span className="text-xs text-red-700">Could not count unread replies</span>}
    </header>
  );
}

/** The left column: the Conversations / Unmatched tabs and the list of the chosen view. */
function InboxSidebar({ s, open }: { s: InboxState; open: string | undefined }) {
  const { view, setView } = s;
  const unmatchedCount = useUnmatchedCount();
  const ids = useId();

  // The tabs pattern: arrow keys move between the two views (and focus follows).
  function onTabKey(e: KeyboardEvent) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    const next: InboxViewName = view === "conversations" ? "unmatched" : "conversations";
    setView(next);
    document.getElementById(`${ids}-${next}`)?.focus();
  }
  return (
    <aside
      aria-label={view === "conversations" ? "Conversation list" : "Unmatched list"}
      className={cn("min-h-0 flex-col border-r border-gray-200 bg-white", open ? "hidden lg:flex" : "flex")}
    >
      <div role="tablist" aria-label="Inbox views" className="flex gap-1 border-b border-gray-200 px-3 pt-2" onKeyDown={onTabKey}>
        <ViewTab
          id={`${ids}-conversations`}
          panel={`${ids}-panel`}
          selected={view === "conversations"}
          onClick={() => setView("conversations")}
        >
          Conversations
        </ViewTab>
        <ViewTab
          id={`${ids}-unmatched`}
          panel={`${ids}-panel`}
          selected={view === "unmatched"}
          onClick={() => setView("unmatched")}
          count={unmatchedCount.data}
        >
          Unmatched
        </ViewTab>
      </div>
      <div role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${view}`} className="flex min-h-0 flex-1 flex-col">
        {view === "conversations" ? (
          <>
            <ThreadFiltersBar filters={s.filters} onChange={s.setFilters} />
            <ThreadList filters={s.filters} onChange={s.setFilters} selected={s.selected} onSelect={s.setSelected} />
          </>
        ) : (
          <UnmatchedList paging={s.unmatchedPaging} onPaging={s.setUnmatchedPaging} selected={s.message} onSelect={s.setMessage} />
        )}
      </div>
    </aside>
  );
}

/** The right column: the open conversation or unmatched message, else a hint to pick one. */
function InboxDetail({ s, open }: { s: InboxState; open: string | undefined }) {
  const { view, selected, message } = s;
  return (
    <div className={cn("min-h-0 overflow-y-auto bg-gray-50", open ? "block" : "hidden lg:block")}>
      {view === "conversations" && selected ? (
        <ConversationPane key={selected} leadId={selected} onBack={() => s.setSelected(undefined)} />
      ) : view === "unmatched" && message ? (
        <UnmatchedPane key={message} id={message} onBack={() => s.setMessage(undefined)} />
      ) : (
        <div className="flex h-full items-center justify-center p-6 text-sm text-gray-500">
          {view === "conversations" ? "Pick a conversation to read it and reply." : "Pick a message to read or forward it."}
        </div>
      )}
    </div>
  );
}

/**
 * The unibox: every conversation of every mailbox on the left, the open one on the right; the
 * Unmatched view lists instead the mail that matched no lead. What is open is in the address
 * (?lead=… or ?view=unmatched&message=…), so a reload or a shared link opens it again.
 */
export function InboxView({
  initialLeadId,
  initialView = "conversations",
  initialMessageId,
}: {
  initialLeadId?: string;
  initialView?: InboxViewName;
  initialMessageId?: string;
}) {
  const s = useInboxState(initialView, initialLeadId, initialMessageId);
  const open = s.view === "conversations" ? s.selected : s.message;
  return (
    // The page's padding undone (the layout's px-4 py-4, md:px-8 md:py-6): the inbox fills the screen below the phone's top bar.
    <div className="-mx-4 -my-4 flex h-[calc(100dvh-3.5rem)] min-h-0 flex-col md:-mx-8 md:-my-6 md:h-screen">
      <InboxHeader />
      <div className="grid min-h-0 flex-1 lg:grid-cols-[26rem_1fr]">
        <InboxSidebar s={s} open={open} />
        <InboxDetail s={s} open={open} />
      </div>
    </div>
  );
}

/** A tab of the list's view switch; the count of unmatched messages follows its label ("Unmatched 3"). */
function ViewTab({
  id,
  panel,
  selected,
  onClick,
  count,
  children,
}: {
  id: string;
  panel: string;
  selected: boolean;
  onClick: () => void;
  count?: number;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="tab"
      id={id}
      aria-controls={panel}
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      onClick={onClick}
      className={cn(
        "-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600",
        selected ? "border-indigo-600 text-indigo-700" : "border-transparent text-gray-600 hover:text-gray-900",
      )}
    >
      {children}
      {count !== undefined && count > 0 && (
        <span className="rounded-full bg-gray-100 px-1.5 text-xs text-gray-600 tabular-nums">{count.toLocaleString()}</span>
      )}
    </button>
  );
}
