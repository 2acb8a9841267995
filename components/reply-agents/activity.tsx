"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ResponseOf } from "@/lib/client";

type ActivityPage = ResponseOf<"/reply-agents/{id}/activity", "get">;
/** One row of GET /reply-agents/<id>/activity. */
export type ActivityItem = ActivityPage["activity"][number];

const TONE: Record<ActivityItem["status"], BadgeTone> = { SENT: "green", PENDING: "blue", WORKING: "blue", SKIPPED: "gray", FAILED: "red" };

/** Why the agent did not send, in words. */
const REASONS: Record<string, string> = {
  ANSWERED: "a person had already answered",
  NEWER_MESSAGE: "the lead wrote again (that message is answered instead)",
  LEAD_ANSWERED: "the lead answered, no follow-up needed",
  NO_PASSAGE: "nothing in its knowledge answers it: left for a person",
  NO_CREDITS: "out of AI credits this month",
  AGENT_OFF: "autonomy was turned off or the agent detached",
  INTENT: "not a question or interest",
  SEND_FAILED: "the mail server refused it",
  INTERRUPTED: "the run stopped midway; not resent",
};

const LIMIT = 20;

/**
 * A reply agent's activity: the answers and follow-ups it sent, with a link to
 * each conversation in the inbox, and what it left alone with the reason. Mount it on the agent's page.
 */
export function AgentActivity({ agentId }: { agentId: string }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ["reply-agents", agentId, "activity", page],
    queryFn: ({ signal }) =>
      data(client.GET("/reply-agents/{id}/activity", { params: { path: { id: agentId }, query: { page, limit: LIMIT } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  if (q.error) return <Alert tone="error">Could not load the activity: {describeError(q.error)}</Alert>;
  if (!q.data) return <p className="text-sm text-gray-500">Loading…</p>;
  const { activity, total } = q.data;
  return (
    <section aria-label="Agent activity" className="space-y-3">
      <h2 className="text-sm font-semibold text-gray-900">Activity</h2>
      {activity.length === 0 && (
        <p className="text-sm text-gray-600">
          No answers yet. With autonomous replies on, questions and interested replies are answered here.
        </p>
      )}
      <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">
        {activity.map((a) => (
          <li key={`${a.replyId}:${a.kind}`} className="space-y-1 px-4 py-3 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={TONE[a.status]}>{a.status === "SENT" ? "Sent" : a.status.toLowerCase()}</Badge>
              <span className="text-gray-500">{a.kind === "FOLLOW_UP" ? "Follow-up" : "Answer"}</span>
              {a.conversationId ? (
                <Link className="font-medium text-indigo-700 hover:underline" href={`/inbox?lead=${encodeURIComponent(a.conversationId)}`}>
                  {a.leadEmail ?? "Conversation"}
                </Link>
              ) : (
                <span>{a.leadEmail}</span>
              )}
              <span className="text-gray-500">{new Date(a.sentAt ?? a.createdAt).toLocaleString()}</span>
              {a.provider && <span className="text-xs text-gray-400">{a.provider === "ai" ? "AI" : "template"}</span>}
            </div>
            <p className="truncate text-gray-600">“{a.question}”</p>
            {a.status !== "SENT" && a.reason && <p className="text-gray-600">Not sent: {REASONS[a.reason] ?? a.reason}</p>}
            {a.answer && a.status === "SENT" && <p className="line-clamp-2 whitespace-pre-line text-gray-800">{a.answer}</p>}
          </li>
        ))}
      </ul>
      {total > LIMIT && (
        <div className="flex items-center gap-2 text-sm">
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {Math.ceil(total / LIMIT)}
          </span>
          <Button size="sm" variant="secondary" disabled={page * LIMIT >= total} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </section>
  );
}
