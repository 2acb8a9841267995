import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RouteDef } from "@/lib/api/route";

const METHOD_TONE: Record<RouteDef["method"], BadgeTone> = { GET: "blue", POST: "green", PUT: "yellow", PATCH: "yellow", DELETE: "red" };

interface Param {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

interface Operation {
  summary: string;
  description: string;
  parameters: Param[];
  requestBody?: { content: { "application/json": { schema: unknown } } };
  responses: Record<string, { description?: string; $ref?: string; content?: { "application/json": { schema: unknown } } }>;
}

export type OpenApiDoc = { paths: Record<string, Record<string, Operation>> };

/** A compact type for a parameter's JSON schema: `integer ≥ 1, default 1`, `enum: A | B`. */
function typeOf(s: Record<string, unknown> = {}): string {
  const parts: string[] = [];
  if (Array.isArray(s.enum)) parts.push(s.enum.join(" | "));
  else if (typeof s.type === "string") parts.push(s.type);
  if (typeof s.minimum === "number") parts.push(`≥ ${s.minimum}`);
  // zod's int() adds MAX_SAFE_INTEGER as a maximum; that is no limit worth reading.
  if (typeof s.maximum === "number" && s.maximum < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${s.maximum}`);
  if (typeof s.maxLength === "number") parts.push(`max ${s.maxLength} chars`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(", ") || "any";
}

/** The contracts write code in `backticks` (markdown for OpenAPI viewers); show it as code here too. */
function Md({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith("`") && part.endsWith("`") ? (
          <code key={i} className="rounded bg-gray-100 px-1 text-[0.9em]">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Schema({ title, schema, open }: { title: string; schema: unknown; open?: boolean }) {
  return (
    <details open={open} className="text-sm">
      <summary className="cursor-pointer font-medium text-gray-800">{title}</summary>
      <pre className="mt-1 max-h-96 overflow-auto rounded-md bg-gray-900 p-3 text-xs leading-relaxed text-gray-100">
        {JSON.stringify(schema, null, 2)}
      </pre>
    </details>
  );
}

function RouteCard({ def, op }: { def: RouteDef; op: Operation }) {
  const params = op.parameters ?? [];
  const [status, ok] = Object.entries(op.responses).find(([, r]) => !r.$ref) ?? [];
  const errors = Object.keys(op.responses).filter((s) => op.responses[s].$ref);
  return (
    <article id={`${def.method}-${def.path}`} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <header className="space-y-1">
        <div className="flex items-center gap-2">
          <Badge tone={METHOD_TONE[def.method]} className="font-mono">
            {def.method}
          </Badge>
          <code className="text-sm font-semibold text-gray-900">/api/v1{def.path}</code>
        </div>
        <p className="text-sm text-gray-800">
          <Md text={op.summary} />
        </p>
        <p className="text-xs text-gray-600">{op.description}</p>
      </header>
      {params.length > 0 && (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-xs text-gray-500 uppercase">
              <th className="py-1 pr-3 font-medium">Parameter</th>
              <th className="py-1 pr-3 font-medium">In</th>
              <th className="py-1 font-medium">Type</th>
            </tr>
          </thead>
          <tbody>
            {params.map((p) => (
              <tr key={`${p.in}-${p.name}`} className="border-t border-gray-100 align-top">
                <td className="py-1 pr-3 font-mono text-xs">
                  {p.name}
                  {p.required && <span className="text-red-600">*</span>}
                </td>
                <td className="py-1 pr-3 text-gray-600">{p.in}</td>
                <td className="py-1 text-gray-700">
                  {typeOf(p.schema)}
                  {p.description && (
                    <span className="block text-xs text-gray-500">
                      <Md text={p.description} />
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {op.requestBody && <Schema title="Request body (JSON schema)" schema={op.requestBody.content["application/json"].schema} open />}
      {ok && (
        <div className="space-y-1 text-sm">
          <p>
            <span className="font-medium text-gray-800">Response {status}:</span>{" "}
            <span className="text-gray-700">
              <Md text={ok.description ?? ""} />
            </span>
          </p>
          {ok.content && <Schema title="Response schema" schema={ok.content["application/json"].schema} />}
        </div>
      )}
      <p className="text-xs text-gray-500">
        Errors: {errors.join(", ")} — body {"{ error, code, details? }"}
      </p>
    </article>
  );
}

/** The reference, grouped by tag in the order routes are declared. */
export function ApiReference({ routes, doc }: { routes: RouteDef[]; doc: OpenApiDoc }) {
  const byTag = new Map<string, RouteDef[]>();
  for (const r of routes) byTag.set(r.tag, [...(byTag.get(r.tag) ?? []), r]);
  return (
    <div className="flex gap-8">
      <nav aria-label="API sections" className="sticky top-6 hidden h-fit w-40 shrink-0 space-y-1 text-sm lg:block">
        {[...byTag.keys()].map((t) => (
          <a key={t} href={`#tag-${t}`} className="block text-gray-700 hover:text-indigo-700">
            {t}
          </a>
        ))}
      </nav>
      <div className="min-w-0 flex-1 space-y-8">
        {[...byTag].map(([tag, defs]) => (
          <section key={tag} id={`tag-${tag}`} className="space-y-3">
            <h2 className="text-lg font-semibold text-gray-900">{tag}</h2>
            {defs.map((def) => (
              <RouteCard key={`${def.method} ${def.path}`} def={def} op={doc.paths[def.path][def.method.toLowerCase()]} />
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}
