import type { RspamdStep } from "../types";

/**
 * The step as sent (for the sample lead, with tracking) scored by the installation's rspamd: its score
 * and action, and the symbols that added or took off points. Shown only when the installation has
 * RSPAMD_URL set; the check reads the saved steps.
 */
export function RspamdScore({ result, edited }: { result: RspamdStep; edited: boolean }) {
  const scored = result.symbols.filter((s) => s.score !== 0);
  return (
    <div className="space-y-1 rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-xs text-gray-700" data-testid="rspamd-score">
      <p>
        <span className="font-medium">rspamd score {result.score}</span> ({result.action}) for the saved version
        {edited ? " (save to score your edits)" : ""}
      </p>
      {scored.length > 0 && (
        <ul className="space-y-0.5">
          {scored.map((s) => (
            <li key={s.name}>
              <span className="font-mono">{s.name}</span> {s.score > 0 ? `+${s.score}` : s.score}
              {s.description ? <span className="text-gray-500"> — {s.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
