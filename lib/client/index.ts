import createFetchClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, paths } from "./schema";

/**
 * The typed API client: openapi-fetch over lib/client/schema.d.ts, which `npm run gen:client` generates
 * from the OpenAPI document (the zod contracts). Paths, parameters, bodies and answers are checked by
 * TypeScript, so a contract change is a type error in every caller.
 */
export type { components, paths };
export type ApiClient = Client<paths>;
/** The API's error body (see docs/api.md): `{ error, code, details? }`. */
export type ApiErrorBody = components["schemas"]["Error"];

type Method = "get" | "post" | "put" | "patch" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
type JsonOf<T> = T extends { content: { "application/json": infer J } } ? J : never;
type Ok<R> = R extends Record<infer S, unknown> ? (S extends 200 | 201 | 202 ? R[S] : never) : never;

/** The success body of an operation: `ResponseOf<"/campaigns/{id}", "get">`. */
export type ResponseOf<P extends keyof paths, M extends Method> = Op<P, M> extends { responses: infer R } ? JsonOf<Ok<R>> : never;
/** The JSON request body of an operation: `BodyOf<"/campaigns", "post">`. */
export type BodyOf<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The query parameters of an operation. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export interface CreateClientOptions {
  /** The server (`https://outreach.example.com`) or the API root; default `/api/v1` on the same origin. */
  baseUrl?: string;
  /** An API key `ok_live_…`, sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** A dashboard session cookie (`next-auth.session-token=…`) for server-side callers; a browser sends its own. */
  cookie?: string;
  headers?: Record<string, string>;
  fetch?: ClientOptions["fetch"];
}

/** `https://host` → `https://host/api/v1`; a base that already ends in /api/v1 is kept. */
export function apiBase(baseUrl = ""): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/api/v1") ? trimmed : `${trimmed}/api/v1`;
}

export function createClient(opts: CreateClientOptions = {}): ApiClient {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  return createFetchClient<paths>({
    baseUrl: apiBase(opts.baseUrl),
    headers,
    credentials: "same-origin",
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/** A failed call: the HTTP status and the API's error body. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ApiErrorBody> & Record<string, unknown>,
  ) {
    super(body.error ?? `Request failed with HTTP ${status}`);
    this.name = "ApiCallError";
  }
  get code(): string {
    return this.body.code ?? `HTTP_${this.status}`;
  }
}

/** The data of a call, or an ApiCallError: `const c = await unwrap(client.GET("/campaigns/{id}", { params: { path: { id } } }))`. */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<NonNullable<D>> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) {
    throw new ApiCallError(response.status, (error && typeof error === "object" ? error : {}) as ApiCallError["body"]);
  }
  return data as NonNullable<D>;
}
