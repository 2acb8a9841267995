import { expect, type Page } from "@playwright/test";
import { type ApiClient, createClient } from "../../lib/client";

/**
 * The typed API client (lib/client, generated from the OpenAPI document) over the page's own request
 * context, so calls carry the signed-in session: `await ok(apiClient(page).POST("/leads", { body }))`.
 * Paths, bodies and answers are the contracts' — a contract change is a type error in the specs.
 */
export function apiClient(page: Page): ApiClient {
  return createClient({
    baseUrl: new URL("/api/v1", page.url().startsWith("http") ? page.url() : process.env.E2E_BASE_URL).href,
    fetch: async (req) => {
      const body = req.method === "GET" || req.method === "DELETE" ? undefined : await req.text();
      // A browser sends Origin with every write; the API refuses a session's writes without the dashboard's.
      const headers = { origin: new URL(req.url).origin, ...Object.fromEntries(req.headers) };
      const res = await page.request.fetch(req.url, {
        method: req.method,
        headers,
        data: body || undefined,
      });
      return new Response(res.status() === 204 ? null : new Uint8Array(await res.body()), { status: res.status(), headers: res.headers() });
    },
  });
}

/** The data of a typed call; a failed call fails the test with the answer. */
export async function ok<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<NonNullable<D>> {
  const { data, error, response } = await call;
  expect(response.ok, `${response.status} ${JSON.stringify(error)}`).toBeTruthy();
  return data as NonNullable<D>;
}

/** The typed client with an API key (`ok_live_…`) as the Bearer credential, against the app under test. */
export function keyClient(apiKey: string): ApiClient {
  return createClient({ baseUrl: process.env.E2E_BASE_URL, apiKey });
}
