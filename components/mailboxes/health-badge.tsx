import { Badge } from "@/components/ui/badge";
import { ago, dateTime } from "@/components/ui/time";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { HEALTH } from "./labels";

/**
 * The mailbox's health, with the mail servers' own words when a login failed: on hover (title) and in
 * a disclosure, since a tooltip alone is unreachable by keyboard and touch. A read error shows even
 * while the mailbox is still HEALTHY: it becomes READ_FAILING only after 30 minutes.
 */
export function HealthBadge({ mailbox: m }: { mailbox: MailboxView }) {
  const h = HEALTH[m.healthStatus];
  const errors = [m.loginError && `SMTP login: ${m.loginError}`, m.readError && `IMAP login: ${m.readError}`].filter(
    (e): e is string => !!e,
  );
  const checked = m.lastCheckedAt ? `Last checked ${ago(m.lastCheckedAt)} (${dateTime(m.lastCheckedAt)}).` : "";
  return (
    <div className="space-y-1">
      <span data-testid="mailbox-health" title={[h.about, ...errors, checked].filter(Boolean).join("\n")}>
        <Badge tone={h.tone}>{h.label}</Badge>
      </span>
      {errors.length > 0 && (
        <details className="max-w-72 text-xs text-gray-700">
          <summary className="cursor-pointer text-gray-600">Why?</summary>
          <ul className="mt-1 space-y-0.5 break-words">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
