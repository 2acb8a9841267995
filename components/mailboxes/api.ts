import { ApiError } from "@/components/api-client";

/**
 * What components/api-client's apiFetch cannot give these pages: the response headers of the plain-array
 * lists (X-Total-Count, spec 8 form 2) and the extra fields of an error body (`smtpResponseCode`, next to
 * `error` and `code`). Errors are still ApiError, so the 401 redirect, the retry rule and describeError
 * treat them like any other.
 */
export class ApiErrorWithBody extends ApiError {
  constructor(
    base: ApiError,
    readonly body: Record<string, unknown>,
  ) {
    super(base.message, base.status, base.code, base.fieldErrors, base.formErrors);
  }

  /** The SMTP server's reply code, when the failure was a mail server's answer. */
  get smtpResponseCode(): number | undefined {
    return typeof this.body.smtpResponseCode === "number" ? this.body.smtpResponseCode : undefined;
  }
}

interface ErrorBody {
  error?: string;
  code?: string;
  details?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] };
}

export async function apiRequest<T>(
  path: string,
  init?: { method?: string; body?: unknown; signal?: AbortSignal },
): Promise<{ data: T; headers: Headers }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init?.method ?? "GET",
      headers: init?.body === undefined ? undefined : { "Content-Type": "application/json" },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
    });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiError(`Could not reach the server: ${(e as Error).message}`, 0, "NETWORK_ERROR");
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const b = (json && typeof json === "object" ? json : {}) as ErrorBody & Record<string, unknown>;
    const retry = res.headers.get("retry-after");
    const message = (b.error ?? `Request failed with HTTP ${res.status}`) + (res.status === 429 && retry ? ` (retry in ${retry} s)` : "");
    const base = new ApiError(message, res.status, b.code ?? "HTTP_" + res.status, b.details?.fieldErrors ?? {}, b.details?.formErrors ?? []);
    throw new ApiErrorWithBody(base, b);
  }
  if (json === undefined) throw new ApiError("The server answered with something that is not JSON", res.status, "BAD_RESPONSE");
  return { data: json as T, headers: res.headers };
}

export interface PlainPage<T> {
  rows: T[];
  total: number;
}

/** A plain-array list (GET /mailboxes, GET /domains) with its total from X-Total-Count. */
export async function fetchPlainPage<T>(path: string, signal?: AbortSignal): Promise<PlainPage<T>> {
  const { data, headers } = await apiRequest<T[]>(path, { signal });
  const total = Number(headers.get("x-total-count"));
  return { rows: data, total: Number.isFinite(total) && headers.has("x-total-count") ? total : data.length };
}

/** The SMTP code of a failed call, if the server reported one. */
export function smtpCodeOf(e: unknown): number | undefined {
  return e instanceof ApiErrorWithBody ? e.smtpResponseCode : undefined;
}
