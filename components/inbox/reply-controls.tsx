"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { dateTime } from "@/components/ui/time";
import { ClockIcon } from "./icons";
import { useRemind } from "./queries";

/** A star toggle; the label says what it stars ("Star conversation with Kim Lee"). */
export function StarButton({
  starred,
  pending,
  label,
  onClick,
  className,
}: {
  starred: boolean;
  pending?: boolean;
  label: string;
  onClick: () => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={starred}
      aria-label={`Star ${label}`}
      title={starred ? "Starred — click to unstar" : "Star"}
      disabled={pending}
      onClick={onClick}
      className={cn(
        "inline-flex h-7 w-7 items-center justify-center rounded text-lg leading-none hover:bg-gray-100 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-indigo-600",
        starred ? "text-yellow-500" : "text-gray-300 hover:text-gray-500",
        className,
      )}
    >
      {starred ? "★" : "☆"}
    </button>
  );
}

/** "Reminder 27 Nov, 09:00" — "Reminder due" once the time has come. */
export function ReminderBadge({ remindAt }: { remindAt: string }) {
  const due = new Date(remindAt).getTime() <= Date.now();
  return (
    <Badge tone={due ? "yellow" : "blue"} className="whitespace-nowrap">
      <ClockIcon />
      <span title={`Reminder: ${dateTime(remindAt)}`} data-testid="reminder">
        {due
          ? "Reminder due"
          : new Date(remindAt).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" })}
      </span>
    </Badge>
  );
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A Date as <input type="datetime-local"> wants it (local time, minutes). */
function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "2026-11-27T09:00" (local) → "2026-11-27T09:00:00+01:00": ISO with the viewer's own offset. */
export function localInputToIso(value: string): string | null {
  const d = new Date(value);
  if (!value || Number.isNaN(d.getTime())) return null;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return `${toLocalInput(d)}:00${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

function tomorrowAt9(): Date {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(9, 0, 0, 0);
  return d;
}

function nextMondayAt9(): Date {
  const d = new Date();
  d.setDate(d.getDate() + ((8 - d.getDay()) % 7 || 7));
  d.setHours(9, 0, 0, 0);
  return d;
}

/** Set, change or clear the reminder of a reply (PATCH /replies/<id>/remind). */
export function RemindControl({ replyId, remindAt }: { replyId: string; remindAt: string | null }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const remind = useRemind();

  function start() {
    setValue(toLocalInput(remindAt ? new Date(remindAt) : tomorrowAt9()));
    remind.reset();
    setOpen(true);
  }

  function save(iso: string | null) {
    remind.mutate({ replyId, remindAt: iso }, { onSuccess: () => setOpen(false) });
  }

  if (!open) {
    return (
      <div className="flex items-center gap-1.5">
        {remindAt && <ReminderBadge remindAt={remindAt} />}
        <Button variant="secondary" size="sm" onClick={start}>
          {remindAt ? "Change reminder" : "Remind me"}
        </Button>
      </div>
    );
  }
  return (
    <form
      aria-label="Reminder"
      className="flex flex-wrap items-center gap-1.5 rounded-md border border-gray-200 bg-gray-50 p-2"
      onSubmit={(e) => {
        e.preventDefault();
        const iso = localInputToIso(value);
        if (iso) save(iso);
      }}
    >
      <label className="flex items-center gap-1.5 text-xs text-gray-700">
        Remind at
        <Input type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} required className="h-8 w-52 text-xs" />
      </label>
      <Button variant="ghost" size="sm" onClick={() => setValue(toLocalInput(tomorrowAt9()))}>
        Tomorrow 9:00
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setValue(toLocalInput(nextMondayAt9()))}>
        Monday 9:00
      </Button>
      <Button type="submit" size="sm" disabled={remind.isPending || !value}>
        {remind.isPending ? "Saving…" : "Save reminder"}
      </Button>
      {remindAt && (
        <Button variant="secondary" size="sm" disabled={remind.isPending} onClick={() => save(null)}>
          Clear reminder
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {remind.error && (
        <p role="alert" className="w-full text-xs text-red-700">
          Could not save the reminder: {describeError(remind.error)}
        </p>
      )}
    </form>
  );
}
