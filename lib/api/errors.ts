import { z } from "zod";
import { AppError, ValidationError, type ErrorCode, type FieldErrors } from "../errors";

/** The one table from error code to HTTP status. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LAUNCH_NEEDS_CONFIRMATION: 409,
  GONE: 410,
  IDEMPOTENCY_MISMATCH: 422,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  UNAVAILABLE: 503,
};

/** Zod issues → `{ fieldErrors, formErrors }`, with nested paths joined by dots (`leads.3.email`). */
export function fieldErrorsFromZod(error: z.ZodError, prefix?: string): FieldErrors {
  const out: FieldErrors = { fieldErrors: {}, formErrors: [] };
  for (const issue of error.issues) {
    const p = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (!p) out.formErrors.push(issue.message);
    else (out.fieldErrors[p] ??= []).push(issue.message);
  }
  return out;
}

export function validationErrorFromZod(error: z.ZodError, where: "body" | "query" | "params"): ValidationError {
  const details = fieldErrorsFromZod(error);
  const first = Object.entries(details.fieldErrors)[0];
  const message = first ? `Invalid ${where}: ${first[0]}: ${first[1][0]}` : `Invalid ${where}: ${details.formErrors[0] ?? "malformed"}`;
  return new ValidationError(message, details);
}

/** Postgres errors that are the client's fault (bad input that slipped past validation). */
function fromPostgres(err: unknown): AppError | undefined {
  // Drizzle wraps the driver's error: the SQLSTATE is on its cause.
  const outer = err as { code?: string; cause?: unknown };
  const e = (typeof outer?.code !== "string" && outer?.cause ? outer.cause : err) as { code?: string; message?: string };
  if (typeof e?.code !== "string" || !/^[0-9A-Z]{5}$/.test(e.code)) return undefined;
  if (e.code === "23505") return new AppError("CONFLICT", "A record with the same unique value already exists");
  // 22021: a NUL or invalid UTF-8 in a string Postgres cannot store.
  if (["22P02", "22001", "22003", "22007", "22008", "22021"].includes(e.code))
    return new AppError("BAD_REQUEST", `Invalid value: ${e.message}`);
  return undefined;
}

/**
 * Socket codes count only on an error the database driver raised (postgres.js marks its errors with the
 * statement, `query`): an SMTP server, IMAP server or HTTP endpoint refusing a connection is not an outage
 * of the database and must not be reported as one.
 */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "EPIPE"]);
/** PostgreSQL's own: shutting down (admin or crash), starting up, too many connections. */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** True when the error (or a cause it wraps) says the database is unreachable: refused, reset, shutting down, starting up. */
export function isDatabaseUnreachable(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (SERVER_CODES.has(code) || code.startsWith("CONNECTION_") || code === "CONNECT_TIMEOUT") return true;
    if (SOCKET_CODES.has(code) && typeof e === "object" && "query" in e) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnreachable)) return true;
  }
  return false;
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return validationErrorFromZod(err, "body");
  if (isDatabaseUnreachable(err))
    return new AppError("UNAVAILABLE", "The database is unreachable; retry shortly", undefined, undefined, { "Retry-After": "5" });
  const pg = fromPostgres(err);
  if (pg) return pg;
  console.error("[api] unexpected error", err);
  return new AppError("INTERNAL_ERROR", "Internal error");
}

export function errorResponse(err: unknown, headers?: Headers): Response {
  const e = toAppError(err);
  const body: Record<string, unknown> = { error: e.message, code: e.code };
  if (e.details !== undefined) body.details = e.details;
  if (e.extra) Object.assign(body, e.extra);
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(e.headers ?? {})) h.set(k, v);
  return Response.json(body, { status: STATUS_BY_CODE[e.code] ?? 500, headers: h });
}
