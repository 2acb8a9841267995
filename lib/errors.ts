/**
 * Domain errors. Domain code throws these and never builds a Response; lib/api/errors.ts maps each
 * `code` to a status and the error shape `{ error, code, details? }`.
 */
export type ErrorCode =
  | "VALIDATION_ERROR"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "UPSTREAM_ERROR"
  /** A part the request needs (the database) is unreachable; the client should retry after Retry-After seconds. */
  | "UNAVAILABLE"
  | "INTERNAL_ERROR"
  | "LAUNCH_NEEDS_CONFIRMATION"
  /** The same Idempotency-Key with a different request ("Idempotency"). */
  | "IDEMPOTENCY_MISMATCH"
  /** A single-use link (invitation, password reset, email confirmation) that is expired, used, revoked or unknown. */
  | "GONE";

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Fields placed next to error/code in the body (e.g. smtpResponseCode). */
    readonly extra?: Record<string, unknown>,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface FieldErrors {
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
}

export class ValidationError extends AppError {
  constructor(message: string, details: FieldErrors) {
    super("VALIDATION_ERROR", message, details);
  }
  /** One field's problem, in the shape clients read (details.fieldErrors[field]). */
  static field(field: string, message: string): ValidationError {
    return new ValidationError(`${field}: ${message}`, { fieldErrors: { [field]: [message] }, formErrors: [] });
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: unknown) {
    super("BAD_REQUEST", message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "Missing, invalid or expired credentials") {
    super("UNAUTHORIZED", message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super("FORBIDDEN", message);
  }
}
export class NotFoundError extends AppError {
  constructor(what: string) {
    super("NOT_FOUND", `${what} not found`);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super("CONFLICT", message, details);
  }
}
/** A single-use link that can no longer be used: expired, used, revoked, or never issued (410). */
export class GoneError extends AppError {
  constructor(message: string) {
    super("GONE", message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super("PAYLOAD_TOO_LARGE", message);
  }
}
export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSeconds: number, details?: unknown) {
    super("RATE_LIMITED", message, details, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class UpstreamError extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super("UPSTREAM_ERROR", message, undefined, extra);
  }
}
