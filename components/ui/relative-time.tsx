"use client";

import { useEffect, useState } from "react";

/** "just now", "5 min", "3 h", "Yesterday", "Mon", "12 Mar", "12 Mar 2025": short enough for a list row. */
export function shortAgo(iso: string, now = Date.now()): string {
  const d = new Date(iso);
  const s = Math.max(0, Math.round((now - d.getTime()) / 1000));
  if (s < 60) return "just now";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const today = new Date(now);
  const sameDay = d.toDateString() === today.toDateString();
  if (sameDay || h < 6) return `${h} h`;
  const yesterday = new Date(now - 86_400_000);
  if (d.toDateString() === yesterday.toDateString()) return "Yesterday";
  if (now - d.getTime() < 6 * 86_400_000) return d.toLocaleDateString(undefined, { weekday: "short" });
  if (d.getFullYear() === today.getFullYear()) return d.toLocaleDateString(undefined, { day: "numeric", month: "short" });
  return d.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

/** Re-renders every minute, so relative times age while the page stays open. */
function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** A <time> showing how long ago `iso` was, with the full date-time on hover. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()} className={className}>
      {shortAgo(iso, now)}
    </time>
  );
}
