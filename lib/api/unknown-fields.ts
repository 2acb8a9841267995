import type { z } from "zod";
import { ValidationError } from "../errors";
import type { RouteDef } from "./route";
import { allRoutes } from "./contracts";

/**
 * Unknown body fields are refused, not dropped: a typo (`trackOpen`) must not look like success.
 *
 * The rule, at every level of the body that is an object schema (nested objects and array items
 * too, never inside a free-form record such as `customFields`):
 * - a field the body schema names is checked by zod as usual;
 * - a field the resource's read answer carries but the body cannot write (`id`, `createdAt`,
 *   counts, …) is accepted and ignored, whatever its value, so a client may send back what it read;
 *   "the read answer" is the route's own response schema and the response of the GET on the same path;
 * - any other field is 400 VALIDATION_ERROR, one `details.fieldErrors` entry per field (dotted path).
 */

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The object schemas a value at this place may have to match (wrappers, unions and pipes unwrapped). */
function objectsOf(schema: unknown, depth = 0): Def[] {
  const d = defOf(schema);
  if (!d || depth > 20) return [];
  switch (d.type) {
    case "object":
      return [d];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return objectsOf(d.innerType, depth + 1);
    case "pipe":
      // z.preprocess / .transform: the input side is what the client sends, unless it is a bare transform.
      return defOf(d.in)?.type === "transform" ? objectsOf(d.out, depth + 1) : objectsOf(d.in, depth + 1);
    case "union":
      return (d.options as unknown[]).flatMap((o) => objectsOf(o, depth + 1));
    case "intersection":
      return [...objectsOf(d.left, depth + 1), ...objectsOf(d.right, depth + 1)];
    case "lazy":
      return objectsOf((d.getter as () => unknown)(), depth + 1);
    default:
      return [];
  }
}

/** The element schemas of the arrays this place may hold. */
function elementsOf(schema: unknown, depth = 0): unknown[] {
  const d = defOf(schema);
  if (!d || depth > 20) return [];
  if (d.type === "array") return [d.element];
  if (["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"].includes(d.type))
    return elementsOf(d.innerType, depth + 1);
  if (d.type === "pipe") return elementsOf(defOf(d.in)?.type === "transform" ? d.out : d.in, depth + 1);
  if (d.type === "union") return (d.options as unknown[]).flatMap((o) => elementsOf(o, depth + 1));
  if (d.type === "lazy") return elementsOf((d.getter as () => unknown)(), depth + 1);
  return [];
}

/** An object schema that takes any key (a record, `.loose()`/`.passthrough()`): its keys are not checked. */
const isOpen = (d: Def) => {
  const c = defOf(d.catchall);
  return c !== undefined && c.type !== "never";
};

const shapeOf = (d: Def) => d.shape as Record<string, unknown>;

/** Edit distance, for the typo hint (short keys: the plain table is enough). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** The accepted key a typo most likely meant: at most two edits away (case ignored), if any. */
function closest(key: string, accepted: Set<string>): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const k of accepted) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

function walk(value: unknown, body: unknown[], readOnly: unknown[], at: string, out: Record<string, string[]>): void {
  if (Array.isArray(value)) {
    const items = body.flatMap((s) => elementsOf(s));
    const roItems = readOnly.flatMap((s) => elementsOf(s));
    if (items.length) for (const [i, v] of value.entries()) walk(v, items, roItems, at ? `${at}.${i}` : String(i), out);
    return;
  }
  if (!value || typeof value !== "object") return;
  const objects = body.flatMap((s) => objectsOf(s));
  if (!objects.length || objects.some(isOpen)) return;
  const roObjects = readOnly.flatMap((s) => objectsOf(s));
  const accepted = new Set(objects.flatMap((d) => Object.keys(shapeOf(d))));
  for (const [key, v] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    const roChildren = roObjects.map(shapeOf).flatMap((s) => (key in s ? [s[key]] : []));
    if (accepted.has(key)) {
      const children = objects.map(shapeOf).flatMap((s) => (key in s ? [s[key]] : []));
      walk(v, children, roChildren, path, out);
    } else if (!roChildren.length) {
      const near = closest(key, accepted);
      const hint = near ? ` (did you mean ${near}?)` : "";
      out[path] = [`unknown field${hint} — this route accepts here: ${[...accepted].sort().join(", ") || "(none)"}`];
    }
  }
}

/** The body's unknown fields by dotted path (empty when there are none). */
export function unknownFields(body: z.ZodType, readOnly: z.ZodType[], json: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  walk(json, [body], readOnly, "", out);
  return out;
}

let getResponses: Map<string, z.ZodType> | undefined;

/** The read-only shapes of a write route: its own response and the GET on the same path. */
export function readOnlySchemas(def: RouteDef): z.ZodType[] {
  if (!getResponses) {
    getResponses = new Map();
    for (const r of allRoutes) if (r.method === "GET" && r.response?.schema) getResponses.set(r.path, r.response.schema);
  }
  const get = getResponses.get(def.path);
  return [def.response?.schema, get].filter((s): s is z.ZodType => s !== undefined);
}

/** The top-level read-only fields a write route accepts and ignores (for its OpenAPI description). */
export function readOnlyFieldNames(def: RouteDef): string[] {
  if (!def.body) return [];
  const accepted = new Set(objectsOf(def.body).flatMap((d) => Object.keys(shapeOf(d))));
  const ro = readOnlySchemas(def).flatMap((s) => objectsOf(s).flatMap((d) => Object.keys(shapeOf(d))));
  return [...new Set(ro)].filter((k) => !accepted.has(k)).sort();
}

/** Throws 400 VALIDATION_ERROR naming every unknown field of a write route's body. */
export function refuseUnknownFields(def: RouteDef, json: unknown): void {
  if (!def.body || def.method === "GET" || def.method === "DELETE") return;
  const fieldErrors = unknownFields(def.body, readOnlySchemas(def), json);
  const paths = Object.keys(fieldErrors);
  if (!paths.length) return;
  const message = `Unknown field${paths.length > 1 ? "s" : ""} in body: ${paths.join(", ")}`;
  throw new ValidationError(message, { fieldErrors, formErrors: [] });
}
