"use client";

import { WARMUP } from "@/components/mailboxes/labels";
import { Badge } from "@/components/ui/badge";
import { Switch } from "@/components/ui/switch";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { isWarming, useWarmupAction, type WarmupAction, type WarmupStatus } from "./api";

type Mailbox = Pick<MailboxView, "id" | "email" | "warmupStatus">;

/** The warmup status as a badge; `data-status` carries the API's name of it. */
export function WarmupBadge({ status }: { status: WarmupStatus }) {
  const w = WARMUP[status] ?? { label: status, tone: "gray" as const };
  return (
    <span data-testid="warmup-status" data-status={status} className="whitespace-nowrap">
      <Badge tone={w.tone}>{w.label}</Badge>
    </span>
  );
}

/**
 * What turning the switch does: on starts the ramp at day 0 (settings from the preset, then
 * the defaults) or, after a pause, resumes it on the day it reached; off pauses it, keeping the day.
 */
export function toggleAction(status: WarmupStatus): WarmupAction {
  if (isWarming(status)) return { kind: "stop" };
  return status === "OFF" ? { kind: "start" } : { kind: "resume" };
}

const VERB: Record<WarmupAction["kind"], string> = {
  start: "start",
  stop: "pause",
  resume: "resume",
  patch: "change",
};

/**
 * A mailbox's warmup switch with its status. A refusal (409: the address warms in another workspace,
 * or an automatic bounce pause that sending must lift first) shows below it, in the server's words.
 */
export function WarmupToggle({ mailbox: m, showBadge = true }: { mailbox: Mailbox; showBadge?: boolean }) {
  const action = useWarmupAction(m.id);
  const next = toggleAction(m.warmupStatus);
  return (
    <div className="max-w-64 space-y-1">
      <div className="flex items-center gap-2">
        <Switch
          checked={isWarming(m.warmupStatus)}
          aria-label={`Warmup of ${m.email}`}
          title={`Click to ${VERB[next.kind]} warmup`}
          disabled={action.isPending}
          onClick={() => action.mutate(next)}
        />
        {showBadge && <WarmupBadge status={m.warmupStatus} />}
      </div>
      {action.error && (
        <p role="alert" data-testid="warmup-error" className="text-xs break-words text-red-700">
          Could not {VERB[action.variables?.kind ?? next.kind]} warmup: {action.error.message}
        </p>
      )}
    </div>
  );
}
