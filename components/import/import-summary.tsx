import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";

/** Full class names, so the stylesheet scanner sees them. */
const GRID_COLUMNS: Record<number, string> = { 1: "grid-cols-1", 2: "grid-cols-2", 3: "grid-cols-3", 4: "grid-cols-4" };

/** An import's counts, one cell each (test id `import-<label>`), with the lists of what went wrong below. */
export function ImportSummary({
  finished,
  cells,
  children,
}: {
  finished: boolean;
  cells: { label: string; value: number }[];
  children?: ReactNode;
}) {
  return (
    <div className="space-y-3" data-testid="import-summary">
      {finished && <Alert tone="success">Import finished.</Alert>}
      <dl className={`grid ${GRID_COLUMNS[cells.length] ?? "grid-cols-4"} gap-2`}>
        {cells.map((c) => (
          <div
            key={c.label}
            className="rounded-lg border border-gray-200 bg-gray-50 px-3 py-2"
            data-testid={`import-${c.label.toLowerCase()}`}
          >
            <dt className="text-xs text-gray-600">{c.label}</dt>
            <dd className="text-lg font-semibold text-gray-900">{c.value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {children}
    </div>
  );
}

/** A collapsible list of rows in the summary (invalid rows, warnings, failures). */
export function SummaryList({ title, open, children }: { title: ReactNode; open?: boolean; children: ReactNode }) {
  return (
    <details open={open} className="text-sm">
      <summary className="cursor-pointer font-medium text-gray-800">{title}</summary>
      <ul className="mt-1 space-y-0.5 text-gray-700">{children}</ul>
    </details>
  );
}
