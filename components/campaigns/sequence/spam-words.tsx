import { Highlight } from "@/components/ui/highlight";
import type { SpamMatch, Step } from "../types";

const FIELDS: { field: SpamMatch["field"]; label: string; text: (s: Step) => string }[] = [
  { field: "subject", label: "Subject", text: (s) => s.subject ?? "" },
  { field: "bodyTemplate", label: "Body", text: (s) => s.bodyTemplate },
  { field: "bodyHtmlTemplate", label: "HTML body", text: (s) => s.bodyHtmlTemplate ?? "" },
];

/**
 * POST check-spam-words reads the saved steps: this lists the matched words per field and marks them
 * in a read-only copy of the saved text (the positions refer to it, not to unsaved edits).
 */
export function SpamWords({ step, matches, edited }: { step: Step; matches: SpamMatch[]; edited: boolean }) {
  if (matches.length === 0) return <p className="text-xs text-green-700">No spam-trigger words in the saved version.</p>;
  return (
    <div className="space-y-2 rounded-md border border-yellow-200 bg-yellow-50 px-3 py-2 text-sm" data-testid="spam-words">
      <p className="font-medium text-yellow-900">
        {matches.length} spam-trigger word{matches.length === 1 ? "" : "s"} in the saved version
        {edited ? " (save to check your edits)" : ""}
      </p>
      {FIELDS.map(({ field, label, text }) => {
        const own = matches.filter((m) => m.field === field);
        if (own.length === 0) return null;
        return (
          <div key={field} className="space-y-1">
            <p className="text-xs text-yellow-900">
              <span className="font-semibold">{label}:</span>{" "}
              {own.map((m, i) => (
                <span key={`${m.index}-${m.word}`}>
                  {i > 0 && ", "}“{m.word}” <span className="text-yellow-800/80">({m.category})</span>
                </span>
              ))}
            </p>
            <details>
              <summary className="cursor-pointer text-xs text-yellow-900">Show where</summary>
              <Highlight
                text={text(step)}
                ranges={own.map((m) => ({ index: m.index, length: m.length, title: `${m.word} (${m.category})` }))}
                markClassName="bg-yellow-300 text-gray-900"
                className="mt-1 max-h-48 overflow-y-auto rounded border border-yellow-200 bg-white p-2 font-mono text-xs text-gray-800"
              />
            </details>
          </div>
        );
      })}
    </div>
  );
}
