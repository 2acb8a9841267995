import type { Ctx } from "../../ctx";
import { jsonSchema } from "../openapi";
import { checkIds, parseBody, parseQuery } from "../handler";
import type { RouteDef } from "../route";
import { ValidationError } from "../../errors";

/**
 * One MCP tool: a REST route seen by a model. `ids` maps the tool's argument names (`campaignId`,
 * as the tools name them) to the route's path params; the rest of the arguments are the route's query or body.
 */
export interface ToolDef {
  name: string;
  description: string;
  route: RouteDef;
  ids?: Record<string, string>;
  /** For a list: the default page size here, smaller than REST's, so a model's context is not flooded. */
  pageSize?: number;
  // biome-ignore lint/suspicious/noExplicitAny: each tool's verb takes its own route's parsed types
  run: (ctx: Ctx, input: { params: Record<string, string>; query: any; body: any }) => Promise<unknown>;
}

type JsonObject = { type?: string; properties?: Record<string, unknown>; required?: string[] };

const inputSchemas = new WeakMap<ToolDef, Record<string, unknown>>();
const queryKeySets = new WeakMap<ToolDef, Set<string>>();

/**
 * The tool's input JSON Schema, generated from the route's own zod contract by the generator of the
 * OpenAPI document: id arguments, then query parameters, then body fields, as one flat object. Built
 * once per tool: the contracts do not change, and generating them all took ~15 ms of every tools/list.
 */
export function toolInputSchema(tool: ToolDef): Record<string, unknown> {
  let schema = inputSchemas.get(tool);
  if (!schema) inputSchemas.set(tool, (schema = buildInputSchema(tool)));
  return schema;
}

/** The names of the route's query parameters (the other arguments are its body's). */
function queryKeysOf(tool: ToolDef): Set<string> {
  let keys = queryKeySets.get(tool);
  if (!keys) {
    keys = new Set(Object.keys((tool.route.query && (jsonSchema(tool.route.query, "input") as JsonObject).properties) ?? {}));
    queryKeySets.set(tool, keys);
  }
  return keys;
}

function buildInputSchema(tool: ToolDef): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [arg, param] of Object.entries(tool.ids ?? {})) {
    properties[arg] = { type: "string", description: `The ${param === "id" ? arg.replace(/Id$/, "") : param} id` };
    required.push(arg);
  }
  for (const schema of [tool.route.query, tool.route.body]) {
    if (!schema) continue;
    const js = jsonSchema(schema, "input") as JsonObject;
    Object.assign(properties, js.properties ?? {});
    for (const r of js.required ?? []) {
      const p = js.properties?.[r] as { default?: unknown } | undefined;
      if (p?.default === undefined && schema === tool.route.body && !tool.route.bodyOptional) required.push(r);
      else if (p?.default === undefined && schema === tool.route.query) required.push(r);
    }
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

function queryValue(v: unknown): string {
  if (Array.isArray(v)) return v.join(",");
  return typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
}

/**
 * Splits a call's arguments into path params, query and body and validates them with the REST edge's
 * own steps (lib/api/handler.ts: ids, query, body with its NUL check), so a tool refuses exactly what
 * the route refuses (a query value arrives as text there, so it is made text here).
 */
export function toolArgs(tool: ToolDef, args: Record<string, unknown>) {
  const ids: Record<string, string> = {};
  for (const arg of Object.keys(tool.ids ?? {})) {
    const v = args[arg];
    if (typeof v !== "string" || v === "") throw ValidationError.field(arg, "is required (a string id)");
    ids[arg] = v;
  }
  checkIds(ids);
  const params = Object.fromEntries(Object.entries(tool.ids ?? {}).map(([arg, param]) => [param, ids[arg]]));
  const queryKeys = queryKeysOf(tool);
  const rawQuery: Record<string, string> = {};
  const rawBody: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (tool.ids && k in tool.ids) continue;
    if (queryKeys.has(k)) {
      if (v !== undefined && v !== null) rawQuery[k] = queryValue(v);
    } else rawBody[k] = v;
  }
  if (tool.pageSize && queryKeys.has("limit") && rawQuery.limit === undefined) rawQuery.limit = String(tool.pageSize);
  const query = parseQuery(tool.route, rawQuery);
  const body = parseBody(tool.route, rawBody);
  return { params, query, body };
}
