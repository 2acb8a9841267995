import { cn } from "@/components/ui/cn";
import { WithDocLinks } from "./doc-links";

export interface IndexedOperation {
  method: string;
  path: string;
  summary: string;
  tag: string;
}

const METHOD_TONE: Record<string, string> = {
  GET: "text-sky-700",
  POST: "text-green-700",
  PUT: "text-amber-700",
  PATCH: "text-amber-700",
  DELETE: "text-red-700",
};

/** Scalar's address of an operation (`#tag/leads/POST/leads`), so an entry opens it once the viewer is there. */
export function operationAnchor(op: IndexedOperation): string {
  return `#tag/${op.tag.toLowerCase().replace(/\s+/g, "-")}/${op.method}${op.path}`;
}

/**
 * Every operation by area, rendered on the server from the same OpenAPI document: on screen at once,
 * while the full viewer (Scalar, a large script) loads in the browser, and readable without it.
 */
export function OperationIndex({ operations, docs }: { operations: IndexedOperation[]; docs: Set<string> }) {
  const byTag = new Map<string, IndexedOperation[]>();
  for (const op of operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  return (
    <div data-testid="operation-index" className="space-y-5">
      <p className="text-xs text-gray-500">
        {operations.length} operations in {byTag.size} areas; the full reference with schemas and examples opens below.
      </p>
      {[...byTag].map(([tag, ops]) => (
        <section key={tag} aria-label={`${tag} operations`} className="space-y-1">
          <h2 className="text-sm font-semibold text-gray-900">{tag}</h2>
          <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">
            {ops.map((op) => (
              <li key={`${op.method} ${op.path}`} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-3 py-1.5 text-sm">
                <a href={operationAnchor(op)} className="flex min-w-0 items-baseline gap-2 font-mono text-xs hover:underline">
                  <span className={cn("w-12 shrink-0 font-semibold", METHOD_TONE[op.method])}>{op.method}</span>
                  <span className="break-all text-gray-800">{op.path}</span>
                </a>
                <span className="min-w-0 text-gray-700">
                  <WithDocLinks text={op.summary} names={docs} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
