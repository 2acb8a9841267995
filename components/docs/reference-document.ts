import { allRoutes } from "@/lib/api/contracts";
import { buildOpenApi } from "@/lib/api/openapi";
import { docHref, docNames, linkDocsInMarkdown } from "./repo-docs";

/**
 * The document's descriptions (markdown, as Scalar renders them) with each mention of a guide made a
 * link to its page; an operation whose summary names a guide (summaries are plain text) gets the
 * link in its description. Only the dashboard's copy: /api/v1/openapi.json stays as generated.
 */
function withDocLinks(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withDocLinks(v, names));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === "description" && typeof v === "string" ? linkDocsInMarkdown(v, names) : withDocLinks(v, names);
  const summary = (value as { summary?: unknown }).summary;
  if (typeof summary === "string" && typeof out.description === "string") {
    const guides = [...summary.matchAll(/\bdocs\/([a-z0-9-]+)\.md\b/g)].map((m) => m[1]).filter((n) => names.has(n));
    if (guides.length) out.description = `${out.description} See ${guides.map((n) => `[docs/${n}.md](${docHref(n)})`).join(", ")}.`;
  }
  return out;
}

/**
 * The document is the same for every request of a running server (the routes and the guides are its
 * files), and generating it from the zod schemas takes a good part of a second: it is made once per
 * base URL and set of guides, not on every visit.
 */
let built: { key: string; doc: Record<string, unknown> } | undefined;

/** The OpenAPI document the dashboard's reference shows: the served one, with its guides linked. */
export function referenceDocument(base: string): Record<string, unknown> {
  const names = docNames();
  const key = `${base} ${[...names].sort().join(",")}`;
  if (built?.key !== key) built = { key, doc: withDocLinks(buildOpenApi(allRoutes, base), names) as Record<string, unknown> };
  return built.doc;
}
