import { type Role, routeMinRole } from "../roles";
import { z } from "zod";
import { exampleOf } from "./openapi-examples";
import { errorComponents, errorSchema, errorStatuses } from "./openapi-errors";
import type { RouteDef } from "./route";
import { readOnlyFieldNames } from "./unknown-fields";

export function jsonSchema(s: z.ZodType, io: "input" | "output") {
  const out = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** Query parameters of a route, one OpenAPI parameter per property of its zod object. */
function queryParameters(def: RouteDef) {
  if (!def.query) return [];
  const js = jsonSchema(def.query, "input") as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: js.required?.includes(name) && schema.default === undefined,
    schema,
    ...(schema.description ? { description: schema.description } : {}),
  }));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
}

/** Decisions, "Idempotency": any POST may carry a key; its first response is replayed for 24 h. */
const IDEMPOTENCY_HEADER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255 },
  description:
    "Makes a retry safe: the first response (status and body) is kept 24 h per key and workspace and replayed with " +
    "`Idempotent-Replayed: true`; the same key with another body is 422 IDEMPOTENCY_MISMATCH; while the first runs, 409 CONFLICT.",
};

const ACCESS_NOTE = { read: "Access R: read-only or full-access key, or a session.", write: "Access F: full-access key or a session." };

/** `GET /campaigns/{id}/steps` → `getCampaignsIdSteps`: unique and stable, for generated clients. */
function operationId(def: RouteDef): string {
  const words = def.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return def.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** An example made from the schema, kept only when the zod schema accepts it (never a wrong example). */
function validExample(zod: z.ZodType, js: Record<string, unknown>): { example?: unknown } {
  // Full, then required fields only, then each field alone (a body that takes one of several fields).
  const props = Object.entries((js.properties ?? {}) as Record<string, Record<string, unknown>>);
  const alone = props.map(([k, v]) => ({ [k]: exampleOf(v, k, 1) }));
  for (const example of [exampleOf(js), exampleOf(js, "", 0, true), ...alone]) {
    if (example !== undefined && zod.safeParse(example).success) return { example };
  }
  return {};
}

/**
 * Request bodies refuse unknown fields (lib/api/unknown-fields.ts): every object schema in them gets
 * `additionalProperties: false`; a free-form map keeps its own `additionalProperties` schema.
 */
function closeObjects(js: unknown): void {
  if (!js || typeof js !== "object") return;
  if (Array.isArray(js)) {
    for (const x of js) closeObjects(x);
    return;
  }
  const o = js as Record<string, unknown>;
  if (o.type === "object" && o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
  for (const k of ["properties", "$defs", "definitions"])
    if (o[k] && typeof o[k] === "object") Object.values(o[k] as object).forEach(closeObjects);
  for (const k of ["items", "anyOf", "oneOf", "allOf", "prefixItems"]) closeObjects(o[k]);
}

function requestBody(def: RouteDef, body: z.ZodType) {
  const schema = jsonSchema(body, "input");
  if (def.method !== "GET" && def.method !== "DELETE") closeObjects(schema);
  return { required: !def.bodyOptional, content: { "application/json": { schema, ...validExample(body, schema) } } };
}

function successResponse(def: RouteDef) {
  const zod = def.response?.schema;
  const type = def.response?.contentType ?? "application/json";
  const description = def.response?.description ?? "OK";
  if (!zod) return { description };
  const schema = jsonSchema(zod, "output");
  return { description, content: { [type]: { schema, ...(type === "application/json" ? validExample(zod, schema) : {}) } } };
}

function otherResponse(r: NonNullable<RouteDef["otherResponses"]>[number]) {
  const schema = jsonSchema(r.schema, "output");
  return { description: r.description, content: { "application/json": { schema, ...validExample(r.schema, schema) } } };
}

/** Who may call a route, by the least role it needs (lib/roles.ts). */
const ROLE_NOTE: Record<Role, string> = {
  owner: "Owner only.",
  admin: "Owner or admin only.",
  member: "Owner, admin or member (not a client seat).",
  client: "Every role, a read-only client seat included.",
};

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: RouteDef[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const status = String(def.response?.status ?? 200);
    const notes = [ACCESS_NOTE[def.access]];
    if (def.credential === "public") notes.push("Public: no credential needed; counted per IP.");
    else notes.push(ROLE_NOTE[routeMinRole(def)]);
    if (def.credential === "session") notes.push("Dashboard session only: an API key gets 403.");
    const ignored = def.method === "GET" || def.method === "DELETE" ? [] : readOnlyFieldNames(def);
    if (ignored.length)
      notes.push(`Unknown body fields are 400; read-only fields sent back are accepted and ignored: ${ignored.join(", ")}.`);
    if (def.extraLimit) notes.push(`Own limit: ${def.extraLimit.points} per ${def.extraLimit.durationSeconds} s.`);
    (paths[def.path] ??= {})[def.method.toLowerCase()] = {
      operationId: operationId(def),
      tags: [def.tag],
      ...(def.credential === "public" ? { security: [] } : {}),
      summary: def.summary,
      description: notes.join(" "),
      parameters: [...pathParameters(def.path), ...queryParameters(def), ...(def.method === "POST" ? [IDEMPOTENCY_HEADER] : [])],
      ...(def.body ? { requestBody: requestBody(def, def.body) } : {}),
      responses: {
        [status]: successResponse(def),
        ...Object.fromEntries((def.otherResponses ?? []).map((r) => [String(r.status), otherResponse(r)])),
        ...Object.fromEntries(errorStatuses(def).map((s) => [String(s), { $ref: `#/components/responses/E${s}` }])),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Outreach API",
      version: "1",
      description:
        "Cold-email outreach platform API. Authenticate with `Authorization: Bearer <API_KEY>`. " +
        "Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds); " +
        "a 429 adds Retry-After.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "API key `ok_live_…`" } },
      schemas: { Error: errorSchema },
      responses: errorComponents(),
    },
  };
}
