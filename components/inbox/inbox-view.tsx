"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ConversationPane } from "./conversation";
import { useUnreadCount, type ThreadFilters } from "./queries";
import { ThreadFiltersBar, ThreadList } from "./thread-list";

const DEFAULT_FILTERS: ThreadFilters = { intent: "", unread: false, starred: false, campaignId: "", page: 1, limit: 50 };

/**
 * The unibox: every conversation of every mailbox on the left, the open one on the right. The open
 * conversation is in the address (?lead=…), so a reload or a shared link opens it again.
 */
export function InboxView({ initialLeadId }: { initialLeadId?: string }) {
  const [filters, setFilters] = useState(DEFAULT_FILTERS);
  const [selected, setSelected] = useState(initialLeadId);
  const unread = useUnreadCount();

  useEffect(() => {
    const url = new URL(window.location.href);
    if (selected) url.searchParams.set("lead", selected);
    else url.searchParams.delete("lead");
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [selected]);

  const u = unread.data;
  return (
    <div className="-mx-8 -my-6 flex h-screen min-h-0 flex-col">
      <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-6 py-3">
        <h1 className="text-xl font-semibold text-gray-900">Inbox</h1>
        {u && (
          <Badge tone={u.messages > 0 ? "indigo" : "gray"} className="tabular-nums">
            <span data-testid="inbox-unread" title={`${u.messages} unread ${u.messages === 1 ? "reply" : "replies"} in ${u.conversations} ${u.conversations === 1 ? "conversation" : "conversations"}`}>
              {u.messages === 0 ? "All read" : `${u.messages.toLocaleString()} unread`}
            </span>
          </Badge>
        )}
        {unread.error && <span className="text-xs text-red-700">Could not count unread replies</span>}
      </header>
      <div className="grid min-h-0 flex-1 lg:grid-cols-[26rem_1fr]">
        <aside aria-label="Conversation list" className={cn("min-h-0 flex-col border-r border-gray-200 bg-white", selected ? "hidden lg:flex" : "flex")}>
          <ThreadFiltersBar filters={filters} onChange={setFilters} />
          <ThreadList filters={filters} onChange={setFilters} selected={selected} onSelect={setSelected} />
        </aside>
        <div className={cn("min-h-0 overflow-y-auto bg-gray-50", selected ? "block" : "hidden lg:block")}>
          {selected ? (
            <ConversationPane key={selected} leadId={selected} onBack={() => setSelected(undefined)} />
          ) : (
            <div className="flex h-full items-center justify-center p-6 text-sm text-gray-500">Pick a conversation to read it and reply.</div>
          )}
        </div>
      </div>
    </div>
  );
}
