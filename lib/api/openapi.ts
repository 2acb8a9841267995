import { z } from "zod";
import { STATUS_BY_CODE } from "./errors";
import type { RouteDef } from "./route";

const errorSchema = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "Human-readable message naming the problem" },
    code: { type: "string", enum: Object.keys(STATUS_BY_CODE) },
    details: { description: "For VALIDATION_ERROR: `{ fieldErrors: { [field]: string[] }, formErrors: string[] }`" },
  },
};

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

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: RouteDef[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const status = String(def.response?.status ?? 200);
    const notes = [ACCESS_NOTE[def.access]];
    if (def.role) notes.push("Owner or admin only.");
    if (def.credential === "session") notes.push("Dashboard session only: an API key gets 403.");
    if (def.extraLimit) notes.push(`Own limit: ${def.extraLimit.points} per ${def.extraLimit.durationSeconds} s.`);
    const errors = new Set([400, 401, 403, 404, 429, ...(def.errors ?? [])]);
    if (def.body) errors.add(413);
    if (def.method === "POST") errors.add(409).add(422);
    (paths[def.path] ??= {})[def.method.toLowerCase()] = {
      tags: [def.tag],
      summary: def.summary,
      description: notes.join(" "),
      parameters: [...pathParameters(def.path), ...queryParameters(def), ...(def.method === "POST" ? [IDEMPOTENCY_HEADER] : [])],
      ...(def.body
        ? { requestBody: { required: !def.bodyOptional, content: { "application/json": { schema: jsonSchema(def.body, "input") } } } }
        : {}),
      responses: {
        [status]: {
          description: def.response?.description ?? "OK",
          ...(def.response?.schema ? { content: { "application/json": { schema: jsonSchema(def.response.schema, "output") } } } : {}),
        },
        ...Object.fromEntries([...errors].sort().map((s) => [String(s), { $ref: `#/components/responses/E${s}` }])),
      },
    };
  }
  const describe: Record<number, string> = {
    400: "Invalid body or parameters (VALIDATION_ERROR, BAD_REQUEST)",
    401: "Missing, invalid, expired or revoked credentials (UNAUTHORIZED)",
    403: "Authenticated but not allowed (FORBIDDEN)",
    404: "Not found, including another workspace's resource (NOT_FOUND)",
    409: "Conflict with the current state (CONFLICT)",
    413: "Body too large (PAYLOAD_TOO_LARGE)",
    422: "The Idempotency-Key was used with a different request (IDEMPOTENCY_MISMATCH)",
    429: "Rate limited (RATE_LIMITED); see Retry-After",
    502: "An upstream operation failed (UPSTREAM_ERROR)",
  };
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
      responses: Object.fromEntries(
        Object.entries(describe).map(([s, d]) => [
          `E${s}`,
          { description: d, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        ]),
      ),
    },
  };
}
