import { cn } from "@/components/ui/cn";
import type { TimelineEvent } from "./queries";

type Kind = TimelineEvent["kind"];

/** Each kind's strokes on a 16×16 grid. */
const PATHS: Record<Kind, string[]> = {
  sent: ["M2 8l12-5-5 12-2-5z", "M7 10l7-7"],
  opened: ["M1.5 8s2.5-4.5 6.5-4.5S14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8z", "M8 6.2a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6z"],
  clicked: ["M4 2.5v9l2.6-2.4 1.8 4 1.6-.7-1.8-4 3.4-.3z"],
  replied: ["M6.5 4L2.5 8l4 4", "M2.5 8h7a4 4 0 0 1 4 4v1"],
  bounced: ["M3 3l10 10", "M13 3L3 13"],
  unsubscribed: ["M8 2v6", "M4.6 4.4a5 5 0 1 0 6.8 0"],
  campaign_added: ["M8 3v10", "M3 8h10"],
  campaign_removed: ["M3 8h10"],
  tagged: ["M2.5 2.5h5.5l5.5 5.5-5.5 5.5-5.5-5.5z", "M5.3 5.3h.01"],
  untagged: ["M2.5 2.5h5.5l5.5 5.5-5.5 5.5-5.5-5.5z", "M3 13L13 3"],
  suppressed: ["M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 0 0 8 1.8z", "M3.6 3.6l8.8 8.8"],
  branched: ["M4 2.5v11", "M4 8c0-2.5 2-3.5 4.5-3.5H12", "M10 2.5l2 2-2 2"],
};

/** Colours by what the event means: engagement green, trouble red, bookkeeping grey. */
const TONE: Record<Kind, string> = {
  sent: "bg-indigo-100 text-indigo-700",
  opened: "bg-green-100 text-green-700",
  clicked: "bg-green-100 text-green-700",
  replied: "bg-blue-100 text-blue-700",
  bounced: "bg-red-100 text-red-700",
  unsubscribed: "bg-red-100 text-red-700",
  suppressed: "bg-red-100 text-red-700",
  campaign_added: "bg-gray-100 text-gray-700",
  campaign_removed: "bg-gray-100 text-gray-700",
  tagged: "bg-yellow-100 text-yellow-800",
  untagged: "bg-yellow-100 text-yellow-800",
  branched: "bg-indigo-100 text-indigo-700",
};

/** The kind's icon in a tinted circle; decorative (the label next to it names the kind). */
export function KindIcon({ kind }: { kind: Kind }) {
  return (
    <span className={cn("flex h-7 w-7 shrink-0 items-center justify-center rounded-full", TONE[kind])}>
      <svg
        viewBox="0 0 16 16"
        width="14"
        height="14"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden
      >
        {PATHS[kind].map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    </span>
  );
}
