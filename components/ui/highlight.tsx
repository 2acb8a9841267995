import type { ReactNode } from "react";
import { cn } from "./cn";

export interface Range {
  index: number;
  length: number;
  /** Shown on hover over the mark. */
  title?: string;
}

/**
 * Read-only text with some ranges marked (<mark>), whitespace kept. Overlapping ranges are merged
 * into the first one, so every character is shown exactly once.
 */
export function Highlight({
  text,
  ranges,
  markClassName,
  className,
}: {
  text: string;
  ranges: Range[];
  markClassName?: string;
  className?: string;
}) {
  const sorted = [...ranges].filter((r) => r.length > 0 && r.index >= 0 && r.index < text.length).sort((a, b) => a.index - b.index);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const r of sorted) {
    if (r.index < at) continue;
    if (r.index > at) parts.push(text.slice(at, r.index));
    const end = Math.min(text.length, r.index + r.length);
    parts.push(
      <mark key={r.index} title={r.title} className={cn("rounded-sm px-0.5", markClassName ?? "bg-yellow-200 text-gray-900")}>
        {text.slice(r.index, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <div className={cn("whitespace-pre-wrap break-words", className)}>{parts}</div>;
}
