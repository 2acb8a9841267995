import { Badge } from "@/components/ui/badge";
import { EVENT_NAMES } from "@/lib/webhooks/schemas";
import { EVENT_HINTS } from "./labels";

/** The subscribed events as chips; every event at once is one "All events" chip. */
export function EventChips({ events }: { events: string[] }) {
  if (EVENT_NAMES.every((e) => events.includes(e))) {
    return (
      <Badge tone="indigo" className="whitespace-nowrap">
        All events ({EVENT_NAMES.length})
      </Badge>
    );
  }
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Events">
      {events.map((e) => (
        <li key={e} title={(EVENT_HINTS as Record<string, string>)[e]}>
          <Badge tone="indigo" className="font-mono">
            {e}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
