import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { GET as GET_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { makeWorkspace } from "@/test/helpers";
import { CLIENT_SCHEMA_PATH, renderClientSchema } from "@/scripts/client-schema";
import { ApiCallError, type BodyOf, createClient, type ResponseOf, unwrap } from "./index";

describe("the typed client", () => {
  it("is generated from the current OpenAPI document (run `npm run gen:client` after changing a contract)", async () => {
    const generated = readFileSync(path.resolve(import.meta.dirname, "../..", CLIENT_SCHEMA_PATH), "utf8");
    expect(generated === (await renderClientSchema()), "lib/client/schema.d.ts is stale: run npm run gen:client").toBe(true);
  }, 60_000);

  it("types answers and bodies from the contracts", () => {
    expectTypeOf<ResponseOf<"/campaigns/{id}", "get">["status"]>().toEqualTypeOf<"DRAFT" | "ACTIVE" | "PAUSED" | "ARCHIVED">();
    expectTypeOf<BodyOf<"/campaigns", "post">>().toHaveProperty("name");
    expectTypeOf<ResponseOf<"/leads", "get">["leads"][number]["email"]>().toEqualTypeOf<string>();
  });

  it("calls the API with a Bearer key and turns an error answer into ApiCallError with the 2.1 code", async () => {
    const ws = await makeWorkspace();
    const seen: string[] = [];
    // In-process: each request goes to the route handler Next.js would call, with the path's id.
    const client = createClient({
      baseUrl: "http://localhost",
      apiKey: ws.fullKey,
      fetch: async (req) => {
        seen.push(`${req.method} ${new URL(req.url).pathname} ${req.headers.get("authorization")?.slice(0, 7)}`);
        const id = new URL(req.url).pathname.split("/")[4];
        return id ? GET_CAMPAIGN(req, { params: Promise.resolve({ id }) }) : CREATE_CAMPAIGN(req);
      },
    });
    const created = await unwrap(client.POST("/campaigns", { body: { name: "Typed" } }));
    const got = await unwrap(client.GET("/campaigns/{id}", { params: { path: { id: created.id } } }));
    expect(got).toMatchObject({ id: created.id, name: "Typed", status: "DRAFT" });
    expect(seen).toEqual(["POST /api/v1/campaigns Bearer ", `GET /api/v1/campaigns/${created.id} Bearer `]);
    const err = await unwrap(client.GET("/campaigns/{id}", { params: { path: { id: "cmp_missing" } } })).catch((e) => e);
    expect(err).toBeInstanceOf(ApiCallError);
    expect([err.status, err.code]).toEqual([404, "NOT_FOUND"]);
  });
});
