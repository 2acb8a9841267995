import { Alert } from "@/components/ui/alert";
import { ago, dateTime } from "@/components/ui/time";
import { ISSUE_KIND } from "./labels";
import type { MailboxIssue } from "./queries";

/** GET /mailboxes/issues: every problem with its kind, since when, the server's words and the fix. */
export function IssuesBanner({ issues, mailboxes }: { issues: MailboxIssue[]; mailboxes: number }) {
  if (issues.length === 0) return null;
  return (
    <section aria-label="Mailbox issues" className="space-y-2 rounded-lg border border-red-200 bg-red-50/60 p-4">
      <h2 className="text-sm font-semibold text-red-900">
        {mailboxes} mailbox{mailboxes === 1 ? "" : "es"} need{mailboxes === 1 ? "s" : ""} attention
      </h2>
      <ul className="space-y-2">
        {issues.map((i) => (
          <li key={`${i.mailboxId}-${i.kind}`} className="rounded-md border border-red-100 bg-white px-3 py-2 text-sm">
            <p>
              <span className="font-medium text-gray-900">{i.email}</span> ·{" "}
              <span className="font-medium text-red-800">{ISSUE_KIND[i.kind]}</span>{" "}
              <span className="text-gray-600" title={dateTime(i.since)}>
                since {dateTime(i.since)} ({ago(i.since)})
              </span>
            </p>
            {i.detail && <p className="mt-1 font-mono text-xs break-words text-gray-700">{i.detail}</p>}
            <p className="mt-1 text-gray-800">
              <span className="font-medium">Fix: </span>
              {i.fix}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Shown instead when the report cannot be loaded, so a missing banner never reads as "all fine". */
export function IssuesError({ message }: { message: string }) {
  return <Alert tone="error">Could not load mailbox issues: {message}</Alert>;
}
