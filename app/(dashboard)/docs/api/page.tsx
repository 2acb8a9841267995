import type { Metadata } from "next";
import Link from "next/link";
import { WithDocLinks } from "@/components/docs/doc-links";
import { OperationIndex } from "@/components/docs/operation-index";
import { docHref, docNames, linkDocsInMarkdown } from "@/components/docs/repo-docs";
import { ScalarReference } from "@/components/docs/scalar-reference";
import { allRoutes } from "@/lib/api/contracts";
import { buildOpenApi } from "@/lib/api/openapi";
import { appUrl, rateLimits } from "@/lib/env";

export const metadata: Metadata = { title: "API reference" };

/**
 * The document's descriptions (markdown, as Scalar renders them) with each mention of a guide made a
 * link to its page; an operation whose summary names a guide (summaries are plain text) gets the
 * link in its description. Only this page's copy: /api/v1/openapi.json stays as generated.
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
const built = new Map<string, Record<string, unknown>>();
function referenceDocument(base: string, docs: Set<string>): Record<string, unknown> {
  const key = `${base} ${[...docs].sort().join(",")}`;
  let doc = built.get(key);
  if (!doc) {
    doc = withDocLinks(buildOpenApi(allRoutes, base), docs) as Record<string, unknown>;
    built.clear();
    built.set(key, doc);
  }
  return doc;
}

/** Rendered from the same OpenAPI document /api/v1/openapi.json serves, so the two cannot disagree. */
export default function ApiReferencePage() {
  const base = `${appUrl()}/api/v1`;
  const docs = docNames();
  const doc = referenceDocument(base, docs);
  const operations = allRoutes.map((r) => ({ method: r.method, path: r.path, summary: r.summary, tag: r.tag }));
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-xl font-semibold text-gray-900">API reference</h1>
        <div className="max-w-3xl space-y-1 text-sm text-gray-700">
          <p>
            Base URL <code className="rounded bg-gray-100 px-1 break-all">{base}</code>. Authenticate with{" "}
            <code className="rounded bg-gray-100 px-1">Authorization: Bearer &lt;API_KEY&gt;</code> (create keys under Settings → API keys).
            Read routes (R) take a read-only or full-access key; write routes (F) need a full-access key.
          </p>
          <p>
            Limits: {rateLimits.apiKeyPerMinute} requests per minute per key. Every response carries X-RateLimit-Limit,
            X-RateLimit-Remaining and X-RateLimit-Reset; a 429 adds Retry-After. Errors are{" "}
            <code className="rounded bg-gray-100 px-1">{"{ error, code, details? }"}</code>; branch on{" "}
            <code className="rounded bg-gray-100 px-1">code</code>.
            {docs.has("api") && (
              <>
                {" "}
                Conventions and every choice the contract leaves open:{" "}
                <Link className="text-indigo-700 hover:underline" href={docHref("api")}>
                  docs/api.md
                </Link>
                .
              </>
            )}
          </p>
          <p>
            Machine-readable:{" "}
            <a className="text-indigo-700 hover:underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>{" "}
            (OpenAPI 3.1). AI assistants: the MCP server at <code className="rounded bg-gray-100 px-1">/api/mcp</code> takes the same keys (
            <WithDocLinks text="docs/mcp.md" names={docs} />
            ).
          </p>
        </div>
      </div>
      <ScalarReference doc={doc} fallback={<OperationIndex operations={operations} docs={docs} />} />
    </div>
  );
}
