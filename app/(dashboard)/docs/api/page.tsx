import type { Metadata } from "next";
import { ScalarReference } from "@/components/docs/scalar-reference";
import { allRoutes } from "@/lib/api/contracts";
import { buildOpenApi } from "@/lib/api/openapi";
import { appUrl, rateLimits } from "@/lib/env";

export const metadata: Metadata = { title: "API reference" };

/** Rendered from the same OpenAPI document /api/v1/openapi.json serves, so the two cannot disagree. */
export default function ApiReferencePage() {
  const base = `${appUrl()}/api/v1`;
  const doc = buildOpenApi(allRoutes, base);
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-xl font-semibold text-gray-900">API reference</h1>
        <div className="max-w-3xl space-y-1 text-sm text-gray-700">
          <p>
            Base URL <code className="rounded bg-gray-100 px-1">{base}</code>. Authenticate with{" "}
            <code className="rounded bg-gray-100 px-1">Authorization: Bearer &lt;API_KEY&gt;</code> (create keys under Settings → API keys).
            Read routes (R) take a read-only or full-access key; write routes (F) need a full-access key.
          </p>
          <p>
            Limits: {rateLimits.apiKeyPerMinute} requests per minute per key. Every response carries X-RateLimit-Limit,
            X-RateLimit-Remaining and X-RateLimit-Reset; a 429 adds Retry-After. Errors are{" "}
            <code className="rounded bg-gray-100 px-1">{"{ error, code, details? }"}</code>; branch on{" "}
            <code className="rounded bg-gray-100 px-1">code</code>.
          </p>
          <p>
            Machine-readable:{" "}
            <a className="text-indigo-700 hover:underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>{" "}
            (OpenAPI 3.1). AI assistants: the MCP server at <code className="rounded bg-gray-100 px-1">/api/mcp</code> takes the same keys
            (docs/mcp.md).
          </p>
        </div>
      </div>
      <ScalarReference doc={doc} />
    </div>
  );
}
