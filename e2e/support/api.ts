import { expect, type Page } from "@playwright/test";

/** Set-up that is not what a spec is about goes through the API, with the page's own session; a failed call fails the test with the response. */
export async function api(page: Page, method: "POST" | "PUT" | "PATCH", path: string, data: unknown) {
  const res = await page.request.fetch(`/api/v1${path}`, { method, data });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBeTruthy();
  return res.json();
}
