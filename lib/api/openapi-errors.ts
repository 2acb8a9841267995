import { routeMinRole } from "../roles";
import { STATUS_BY_CODE } from "./errors";
import type { RouteDef } from "./route";

/**
 * The error responses of the OpenAPI document: which statuses an operation can answer, derived from
 * its RouteDef, and one shared response per status with the `{ error, code, details? }` error shape and an example of
 * each code it carries.
 */

export const errorSchema = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "Human-readable message naming the problem" },
    code: { type: "string", enum: Object.keys(STATUS_BY_CODE) },
    details: {
      type: "object",
      description: "For VALIDATION_ERROR: `{ fieldErrors: { [field]: string[] }, formErrors: string[] }`",
      properties: {
        fieldErrors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
        formErrors: { type: "array", items: { type: "string" } },
      },
    },
  },
};

const DESCRIBE: Record<number, string> = {
  400: "Invalid body, query or path parameter (VALIDATION_ERROR, BAD_REQUEST)",
  401: "Missing, invalid, expired or revoked credentials (UNAUTHORIZED)",
  403: "Authenticated but not allowed: a read-only key on a write route, a member on an owner/admin route, an API key on a session route (FORBIDDEN)",
  404: "Not found, including another workspace's resource (NOT_FOUND)",
  409: "Conflict with the current state, or the Idempotency-Key's first request is still running (CONFLICT, LAUNCH_NEEDS_CONFIRMATION)",
  410: "The single-use link is expired, used, revoked or unknown (GONE)",
  413: "Body too large (PAYLOAD_TOO_LARGE)",
  422: "The Idempotency-Key was used with a different request (IDEMPOTENCY_MISMATCH)",
  429: "Rate limited (RATE_LIMITED); see Retry-After",
  502: "An upstream operation failed, e.g. the mail server refused (UPSTREAM_ERROR)",
  503: "The database is unreachable; retry after Retry-After seconds (UNAVAILABLE)",
};

const EXAMPLES: Record<string, { error: string; code: string; details?: unknown }> = {
  VALIDATION_ERROR: {
    error: "Invalid body: name: Too small: expected string to have >=1 characters",
    code: "VALIDATION_ERROR",
    details: { fieldErrors: { name: ["Too small: expected string to have >=1 characters"] }, formErrors: [] },
  },
  BAD_REQUEST: { error: "The body is not valid JSON", code: "BAD_REQUEST" },
  UNAUTHORIZED: { error: "Missing or invalid API key", code: "UNAUTHORIZED" },
  FORBIDDEN: { error: "This API key is read-only", code: "FORBIDDEN" },
  NOT_FOUND: { error: "Campaign not found", code: "NOT_FOUND" },
  CONFLICT: { error: "A request with this Idempotency-Key is still running", code: "CONFLICT" },
  LAUNCH_NEEDS_CONFIRMATION: { error: "The launch check has warnings: send confirm: true", code: "LAUNCH_NEEDS_CONFIRMATION" },
  GONE: { error: "This invitation has expired; ask for a new one", code: "GONE" },
  PAYLOAD_TOO_LARGE: { error: "The body is larger than 5 MB", code: "PAYLOAD_TOO_LARGE" },
  IDEMPOTENCY_MISMATCH: { error: "This Idempotency-Key was used with a different request", code: "IDEMPOTENCY_MISMATCH" },
  RATE_LIMITED: { error: "Rate limit exceeded: 300 requests per minute", code: "RATE_LIMITED" },
  UPSTREAM_ERROR: { error: "The mail server refused the message: 550 5.7.1 relay denied", code: "UPSTREAM_ERROR" },
  UNAVAILABLE: { error: "The database is unreachable; retry shortly", code: "UNAVAILABLE" },
};

/**
 * The statuses an operation can answer with an error: 401 (but for public routes) and 429 always
 * (every route takes a credential and counts against its limit); 403 for write, role-gated
 * (everything a client seat may not read) and session-only routes;
 * 400 for anything it parses (body, query, path ids); 404 for a path id; 413 for a body; 409 and
 * 422 for a POST (Idempotency-Key); 503 always (the database may be unreachable); plus the route's declared `errors`.
 */
export function errorStatuses(def: RouteDef): number[] {
  // A public route takes no credential, so it cannot answer 401.
  const out = new Set([...(def.credential === "public" ? [] : [401]), 429, 503, ...(def.errors ?? [])]);
  const hasIds = def.path.includes("{");
  if (def.access === "write" || routeMinRole(def) !== "client" || def.credential === "session") out.add(403);
  if (def.body || def.query || hasIds) out.add(400);
  if (hasIds) out.add(404);
  if (def.body) out.add(413);
  if (def.method === "POST") out.add(409).add(422);
  return [...out].sort((a, b) => a - b);
}

/** `components.responses`: E400 … E502, each the 2.1 error with an example per code of that status. */
export function errorComponents() {
  return Object.fromEntries(
    Object.entries(DESCRIBE).map(([status, description]) => {
      const codes = Object.entries(STATUS_BY_CODE).filter(([code, s]) => String(s) === status && EXAMPLES[code]);
      const examples = Object.fromEntries(codes.map(([code]) => [code, { value: EXAMPLES[code] }]));
      return [`E${status}`, { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, examples } } }];
    }),
  );
}
