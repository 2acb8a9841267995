import type { Metadata } from "next";
import Link from "next/link";
import { WithDocLinks } from "@/components/docs/doc-links";
import { OperationIndex } from "@/components/docs/operation-index";
import { docHref, docNames } from "@/components/docs/repo-docs";
import { ScalarReference } from "@/components/docs/scalar-reference";
import { allRoutes } from "@/lib/api/contracts";
import { appUrl, rateLimits } from "@/lib/env";

export const metadata: Metadata = { title: "API reference" };

/**
 * Rendered from the same contracts as /api/v1/openapi.json, so the two cannot disagree. The page itself
 * carries only the operation list: the viewer loads the full document (half a megabyte) once the
 * page is on screen.
 */
export default function ApiReferencePage() {
  const base = `${appUrl()}/api/v1`;
  const docs = docNames();
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
      <ScalarReference url="/docs/api/openapi.json" fallback={<OperationIndex operations={operations} docs={docs} />} />
    </div>
  );
}
