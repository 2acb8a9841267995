import { appendFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { allRoutes } from "../lib/api/contracts";
import type { RouteDef } from "../lib/api/route";

/** `/leads/{id}` → a regexp for the concrete path; literal segments win over parameters. */
function matcher(def: RouteDef): RegExp {
  const src = def.path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+");
  return new RegExp(`^${src}$`);
}

const compiled = allRoutes.map((def) => ({ def, re: matcher(def), params: (def.path.match(/\{/g) ?? []).length }));

/** The contract a request to `METHOD /api/v1/...` is served by (fewest path parameters when several match). */
export function contractFor(method: string, url: string): RouteDef | undefined {
  const path = new URL(url, "http://localhost").pathname.replace(/^\/api\/v1/, "");
  const hits = compiled.filter((c) => c.def.method === method && c.re.test(path)).sort((a, b) => a.params - b.params);
  return hits[0]?.def;
}

/**
 * Every successful JSON answer a route test sees must be exactly what the contract's response schema
 * describes: it parses, and parsing drops nothing (no undocumented field) — so the OpenAPI document and
 * the generated client never drift from the serializers. Throws with the route and the zod issues.
 */
export function assertConforms(
  method: string,
  url: string,
  res: { status: number; contentType: string | null; contract?: RouteDef },
  body: unknown,
): void {
  if (res.status < 200 || res.status >= 300 || !res.contentType?.includes("application/json")) return;
  // The handler's own contract (api() attaches it); by path for a handler without one.
  const def = res.contract ?? contractFor(method, url);
  // A documented other success status (e.g. a 202) has its own schema.
  const schema = def?.otherResponses?.find((r) => r.status === res.status)?.schema ?? def?.response?.schema;
  if (!def || !schema) return;
  const where = `${def.method} ${def.path}`;
  // CONFORMANCE_LOG=<file>: which contracts the run checked against a real answer (to find the unchecked ones).
  if (process.env.CONFORMANCE_LOG) appendFileSync(process.env.CONFORMANCE_LOG, `${where}\n`);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new Error(`${where}: the response does not match its schema: ${JSON.stringify(parsed.error.issues).slice(0, 1500)}`);
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), body)) {
    throw new Error(`${where}: the response has fields its schema does not describe: ${JSON.stringify(body).slice(0, 800)}`);
  }
}
