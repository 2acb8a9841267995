"use client";

import Link from "next/link";
import { useState } from "react";
import { describeError } from "@/components/api-client";
import { INTENT_LABEL, INTENT_TONE } from "@/components/inbox/labels";
import type { Intent } from "@/components/inbox/types";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { RelativeTime } from "@/components/ui/relative-time";
import { type TimelineEvent, useLeadTimeline } from "./queries";
import { KindIcon } from "./timeline-icons";

const PAGE_SIZES = [25, 50, 100, 200]; // 200 is the API's maximum

/** The event in a few words: what happened. */
function label(e: TimelineEvent): string {
  const d = e.detail;
  const tag = d.tag ? `“${d.tag.name}”` : "";
  switch (e.kind) {
    case "sent":
      return "Email sent";
    case "opened":
      return "Opened the email";
    case "clicked":
      return "Clicked a link";
    case "replied":
      return d.automatic ? "Automatic reply" : "Replied";
    case "bounced":
      return d.bounceType ? `Bounced (${d.bounceType})` : "Bounced";
    case "unsubscribed":
      return d.source === "reply" ? "Unsubscribed by reply" : "Unsubscribed (link)";
    case "campaign_added":
      return "Added to campaign";
    case "campaign_removed":
      return d.reason === "campaign_deleted" ? "Campaign deleted" : "Removed from campaign";
    case "tagged":
      return `Tagged ${tag}`;
    case "untagged":
      return d.reason === "tag_deleted" ? `Tag ${tag} deleted` : `Tag ${tag} removed`;
    case "suppressed":
      return d.entry?.kind === "domain" ? "Domain suppressed" : "Address suppressed";
    case "branched":
      return "Took a sequence branch";
  }
}

/** The facts under the label, one line each. */
function facts(e: TimelineEvent): string[] {
  const d = e.detail;
  const out: string[] = [];
  if (d.subject && e.kind !== "replied") out.push(`“${d.subject}”`);
  if (d.mailbox) out.push(`From ${d.mailbox.email}`);
  if (d.url) out.push(d.url);
  if (e.kind === "bounced" && d.reason) out.push(d.code ? `${d.code} ${d.reason}` : d.reason);
  if (d.entry) out.push(`${d.entry.value}${d.reason ? ` · ${d.reason.replace(/_/g, " ")}` : ""}`);
  return out;
}

function Step({ step }: { step: NonNullable<TimelineEvent["step"]> }) {
  return (
    <span>
      Step {step.order + 1}
      {step.variant ? ` · variant ${step.variant}` : ""}
    </span>
  );
}

function EventRow({ e, leadId }: { e: TimelineEvent; leadId: string }) {
  const intent = e.detail.intent as Intent | undefined;
  return (
    <li className="flex gap-3 py-3" data-kind={e.kind}>
      <KindIcon kind={e.kind} />
      <div className="min-w-0 flex-1 space-y-0.5">
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <p className="text-sm font-medium text-gray-900">{label(e)}</p>
          {intent && e.kind === "replied" && (
            <Badge tone={INTENT_TONE[intent] ?? "gray"} className="intent">
              {INTENT_LABEL[intent] ?? intent}
            </Badge>
          )}
          <RelativeTime iso={e.at} className="ml-auto shrink-0 text-xs text-gray-500 tabular-nums" />
        </div>
        {(e.campaign || e.step) && (
          <p className="flex flex-wrap gap-x-2 text-xs text-gray-600">
            {e.campaign &&
              (e.campaign.name ? (
                <Link href={`/campaigns/${e.campaign.id}`} className="text-indigo-700 hover:underline">
                  {e.campaign.name}
                </Link>
              ) : (
                <span>A deleted campaign</span>
              ))}
            {e.step && <Step step={e.step} />}
          </p>
        )}
        {facts(e).map((f) => (
          <p key={f} className="text-xs break-words text-gray-600">
            {f}
          </p>
        ))}
        {e.kind === "replied" && (
          <p className="text-sm break-words text-gray-800">
            {e.detail.snippet || <span className="text-gray-500 italic">(no text)</span>}{" "}
            <Link href={`/inbox?lead=${leadId}`} className="text-xs font-medium text-indigo-700 hover:underline">
              Open conversation
            </Link>
          </p>
        )}
      </div>
    </li>
  );
}

/** The lead's timeline, newest first, a page at a time. */
export function LeadTimeline({ leadId }: { leadId: string }) {
  const [paging, setPaging] = useState({ page: 1, limit: 50 });
  const timeline = useLeadTimeline(leadId, paging.page, paging.limit);
  const events = timeline.data?.events ?? [];
  return (
    <section aria-labelledby="timeline-heading" className="space-y-2 rounded-lg border border-gray-200 bg-white px-4 py-3">
      <h2 id="timeline-heading" className="text-sm font-semibold text-gray-900">
        Timeline
      </h2>
      {timeline.error && <Alert tone="error">Could not load the timeline: {describeError(timeline.error)}</Alert>}
      {timeline.isPending && <p className="text-sm text-gray-500">Loading…</p>}
      {timeline.data && events.length === 0 && <p className="text-sm text-gray-600">Nothing has happened to this lead yet.</p>}
      <ol aria-label="Timeline events" aria-busy={timeline.isFetching} className="divide-y divide-gray-100">
        {events.map((e, i) => (
          // The events have no id of their own; their position on the page is stable while it is shown.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <EventRow key={`${paging.page}-${i}`} e={e} leadId={leadId} />
        ))}
      </ol>
      {/* Paging once there is more than the smallest page. */}
      {timeline.data && timeline.data.total > PAGE_SIZES[0] && (
        <Pager
          page={paging.page}
          limit={paging.limit}
          total={timeline.data.total}
          shown={events.length}
          sizes={PAGE_SIZES}
          onPage={(page) => setPaging((p) => ({ ...p, page }))}
          onLimit={(limit) => setPaging({ page: 1, limit })}
        />
      )}
    </section>
  );
}
