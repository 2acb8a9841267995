/**
 * The dashboard's fetch: same-origin, so the next-auth session cookie is the credential (spec 5.7).
 * Failures become an ApiError carrying the API's `{ error, code, details }` (spec 2.1) so that every
 * screen can show the server's own message.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly formErrors: string[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface ErrorBody {
  error?: string;
  code?: string;
  details?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] };
}

export async function apiFetch<T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
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
    const b = (json ?? {}) as ErrorBody;
    const retry = res.headers.get("retry-after");
    const message = (b.error ?? `Request failed with HTTP ${res.status}`) + (res.status === 429 && retry ? ` (retry in ${retry} s)` : "");
    throw new ApiError(message, res.status, b.code ?? "HTTP_" + res.status, b.details?.fieldErrors ?? {}, b.details?.formErrors ?? []);
  }
  if (json === undefined) throw new ApiError("The server answered with something that is not JSON", res.status, "BAD_RESPONSE");
  return json as T;
}

/** One line for an error: the API's message, then each field's problems. */
export function describeError(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const fields = Object.entries(e.fieldErrors).map(([k, v]) => `${k}: ${v.join(", ")}`);
  const extra = [...fields, ...e.formErrors].filter((m) => !e.message.includes(m));
  return extra.length ? `${e.message} (${extra.join("; ")})` : e.message;
}
