import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allRoutes } from "./index";

const root = path.resolve(import.meta.dirname, "../../../app/api/v1");
/** Routes that are no part of the API surface: the document itself, and the catch-all 404 for unknown paths. */
const NOT_CONTRACTS = new Set(["GET /openapi.json"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(p);
    return e.name === "route.ts" ? [p] : [];
  });
}

/** `METHOD /path/{param}` for every handler exported by a route file under app/api/v1. */
function servedRoutes(): string[] {
  const out: string[] = [];
  for (const file of routeFiles(root)) {
    const dir = path.relative(root, path.dirname(file)).split(path.sep).filter(Boolean);
    if (dir.some((d) => d.startsWith("[..."))) continue;
    const url = `/${dir.map((d) => d.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
    const text = readFileSync(file, "utf8");
    for (const m of METHODS) {
      if (new RegExp(`export (const|async function|function) ${m}\\b|export \\{[^}]*\\b${m}\\b`).test(text)) out.push(`${m} ${url}`);
    }
  }
  return out.filter((r) => !NOT_CONTRACTS.has(r)).sort();
}

/** Path params are matched by position, not name: `/leads/{id}` and `/leads/{leadId}` are the same route. */
const shape = (r: string) => r.replace(/\{\w+\}/g, "{}");

describe("the contracts (the OpenAPI document covers every route)", () => {
  it("has a contract for every route file's handler under app/api/v1", () => {
    const contracts = new Set(allRoutes.map((r) => shape(`${r.method} ${r.path}`)));
    expect(servedRoutes().filter((r) => !contracts.has(shape(r)))).toEqual([]);
  });

  it("has no contract without a route file", () => {
    const served = new Set(servedRoutes().map(shape));
    expect(allRoutes.map((r) => `${r.method} ${r.path}`).filter((r) => !served.has(shape(r)))).toEqual([]);
  });

  it("gives every contract a response schema", () => {
    expect(allRoutes.filter((r) => !r.response?.schema).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

describe("the OpenAPI document: Idempotency-Key", () => {
  it("offers Idempotency-Key on every POST and documents 409 and 422 there", async () => {
    const { buildOpenApi } = await import("../openapi");
    const doc = buildOpenApi(allRoutes, "http://localhost/api/v1") as { paths: Record<string, Record<string, any>> };
    const posts = Object.values(doc.paths).flatMap((p) => (p.post ? [p.post] : []));
    expect(posts.length).toBeGreaterThan(20);
    for (const op of posts) {
      expect(op.parameters.map((x: { name: string }) => x.name)).toContain("Idempotency-Key");
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["409", "422"]));
    }
    expect(doc.paths["/campaigns"].get.parameters.map((x: { name: string }) => x.name)).not.toContain("Idempotency-Key");
  });
});
