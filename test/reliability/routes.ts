import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { allRoutes } from "../../lib/api/contracts";
import { jsonSchema } from "../../lib/api/openapi";
import { exampleOf } from "../../lib/api/openapi-examples";
import type { RouteDef } from "../../lib/api/route";

export type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>;
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** One method of one route file under app/api/v1, with its contract. */
export interface Operation {
  /** Folder under app/api/v1, e.g. `campaigns/[id]/steps`. */
  rel: string;
  method: Method;
  handler: Handler;
  /** Path parameter names, in order. */
  params: string[];
  def: RouteDef;
}

const v1 = path.resolve(import.meta.dirname, "../../app/api/v1");

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) routeFiles(p, out);
    else if (name === "route.ts") out.push(path.relative(v1, path.dirname(p)));
  }
  return out.sort();
}

/** `campaigns/[id]/steps` → `/campaigns/{id}/steps`, the contract path. */
export const templateOf = (rel: string) => `/${rel.replace(/\[([^\]]+)\]/g, "{$1}")}`;

/** A concrete path for the request URL (the handler reads params from the context, the URL is for logs and conformance). */
export const concrete = (rel: string, values: Record<string, string>) =>
  `/${rel.replace(/\[([^\]]+)\]/g, (_, n: string) => encodeURIComponent(values[n] ?? "x"))}`;

/** The contract of a folder's method: the same path with any parameter names (`{leadId}` and `{id}` alike). */
function contractOf(method: string, template: string): RouteDef | undefined {
  const shape = (p: string) => p.replace(/\{\w+\}/g, "{}");
  return allRoutes.find((d) => d.method === method && shape(d.path) === shape(template));
}

/**
 * Every operation of the public API: each route file's exported methods, matched to its contract.
 * The catch-all `[...path]` (404 for unknown routes) and `openapi.json` (public) are not API operations.
 */
export async function operations(): Promise<Operation[]> {
  const out: Operation[] = [];
  for (const rel of routeFiles(v1)) {
    if (rel.startsWith("[...") || rel === "openapi.json") continue;
    const mod = (await import(path.join(v1, rel, "route.ts"))) as Record<string, unknown>;
    const params = [...rel.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler !== "function") continue;
      const def = contractOf(method, templateOf(rel));
      if (!def) throw new Error(`${method} /${rel} has no contract`);
      out.push({ rel, method, handler: handler as Handler, params, def });
    }
  }
  return out;
}

/**
 * A body the route's contract accepts, made the way the OpenAPI document makes its examples: the full
 * example, then required fields only, then each field alone; undefined for a route without a body or
 * when none of them parses (the caller then knows a lookup behind the body check is not reached).
 */
export function validBody(op: Operation): unknown {
  const zod = op.def.body;
  if (!zod) return undefined;
  const js = jsonSchema(zod, "input");
  const props = Object.entries((js.properties ?? {}) as Record<string, Record<string, unknown>>);
  const alone = props.map(([k, v]) => ({ [k]: exampleOf(v, k, 1) }));
  for (const example of [exampleOf(js), exampleOf(js, "", 0, true), ...alone]) {
    if (example !== undefined && zod.safeParse(example).success) return example;
  }
  return undefined;
}
