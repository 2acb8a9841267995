import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allRoutes } from "@/lib/api/contracts";
import { buildOpenApi } from "@/lib/api/openapi";

/**
 * The dashboard and the e2e specs build on the typed client (lib/client, generated from the OpenAPI
 * document), so a contract change is a type error in the UI. This fails when a dashboard
 * file or a spec calls /api/v1 by hand — fetch, the old apiFetch/apiRequest wrappers, a Playwright
 * request or an XMLHttpRequest — instead of `client.GET("/path/{id}", …)`.
 */
const root = path.resolve(import.meta.dirname, "..");

/** Hand-written calls that stay, each with the reason the typed client cannot make it. */
const ALLOWED: Record<string, string> = {
  // fetch (and so openapi-fetch) reports no upload progress; the document upload's progress bar needs
  // XMLHttpRequest. Its body and answer are still typed with BodyOf/ResponseOf.
  "components/reply-agents/queries.ts": "upload progress (XMLHttpRequest)",
  // Posts 10 MB and 10 MB + 1 byte to prove the server's body limit (413) with its own timeout: the
  // transport limit is under test there, not the contract.
  "e2e/reply-agents.spec.ts": "raw body-limit test",
};

const HAND_CALL = new RegExp(
  [
    // fetch("/api/v1…"), fetch(`/api/v1/${id}`) and the untyped wrappers, with or without a type argument.
    String.raw`\b(?:fetch|apiFetch|apiRequest|fetchPlainPage)\s*(?:<[^>(]*>)?\(\s*[\x60'"]/api/v1`,
    // Playwright's page.request / request fixture.
    String.raw`\brequest\.(?:get|post|put|patch|delete|fetch)\(\s*[\x60'"]/api/v1`,
    // XMLHttpRequest.open("POST", "/api/v1…").
    String.raw`\.open\(\s*"[A-Z]+",\s*[\x60'"]/api/v1`,
  ].join("|"),
);

function files(dir: string, keep: (rel: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) files(rel, keep, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name) && keep(rel)) out.push(rel);
  }
  return out;
}

const dashboard = [
  ...files("components", () => true),
  ...files("app", (rel) => !rel.startsWith("app/api/")),
  ...files("e2e", (rel) => rel.endsWith(".spec.ts") || rel.startsWith("e2e/support/")),
];

function offenders(): string[] {
  return dashboard.filter((rel) => HAND_CALL.test(readFileSync(path.join(root, rel), "utf8")));
}

describe("the dashboard on the typed client", () => {
  it("scans the dashboard, the specs and their helpers", () => {
    expect(dashboard).toContain("components/inbox/queries.ts");
    expect(dashboard).toContain("app/(dashboard)/layout.tsx");
    expect(dashboard).toContain("e2e/support/api.ts");
    expect(dashboard.some((f) => f.startsWith("app/api/"))).toBe(false);
  });

  it("finds a hand-written call in each of its forms (so the scan below can fail)", () => {
    for (const line of [
      'fetch("/api/v1/leads")',
      "fetch(`/api/v1/leads/` + id, { method: 'DELETE' })",
      'apiFetch<Lead>("/api/v1/leads", { method: "POST", body })',
      "apiRequest(`/api/v1/domains`)",
      "page.request.post(`/api/v1/webhooks`, { data })",
      'xhr.open("POST", `/api/v1/reply-agents/` + path)',
    ]) {
      expect(HAND_CALL.test(line), line).toBe(true);
    }
    expect(HAND_CALL.test('client.GET("/leads/{id}", { params: { path: { id } } })')).toBe(false);
    expect(HAND_CALL.test('apiFetch("/api/setup", { method: "POST", body })')).toBe(false);
  });

  it("has no hand-written /api/v1 call outside the commented allow-list", () => {
    const left = offenders().filter((rel) => !(rel in ALLOWED));
    expect(left).toEqual([]);
  });

  it("keeps the allow-list honest: each entry still needs its exception", () => {
    const found = new Set(offenders());
    expect(Object.keys(ALLOWED).filter((rel) => !found.has(rel))).toEqual([]);
  });

  it("documents the 202 of a background reply send next to its 200, so the client types both answers", () => {
    const doc = buildOpenApi(allRoutes, "http://localhost/api/v1");
    const responses = (doc.paths["/replies/{id}/send"].post as { responses: Record<string, { content?: object }> }).responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["200", "202"]));
    expect(JSON.stringify(responses["202"].content)).toContain('"queued"');
    expect(JSON.stringify(responses["200"].content)).toContain('"sentAt"');
    expect(JSON.stringify(responses["200"].content)).not.toContain('"queued"');
  });
});
