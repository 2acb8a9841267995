import { describe, expect, it } from "vitest";
import { GET } from "./route";

describe("GET /api/v1/openapi.json", () => {
  it("is generated from the zod schemas the routes validate with", async () => {
    const doc = await (await GET()).json();
    expect(doc.openapi).toBe("3.1.0");
    const create = doc.paths["/leads"].post;
    const body = create.requestBody.content["application/json"].schema;
    expect(body.properties.leads.maxItems).toBe(1000);
    expect(body.properties.leads.items.properties.verificationStatus.enum).toContain("CATCH_ALL");
    const list = doc.paths["/leads"].get;
    const limit = list.parameters.find((p: any) => p.name === "limit");
    expect(limit.schema.maximum).toBe(200);
    expect(doc.paths["/leads/bulk-delete"].post.description).toContain("Owner or admin");
    expect(doc.paths["/account/api-keys"].get.description).toContain("session only");
    expect(doc.paths["/leads/{id}"].patch.parameters[0]).toMatchObject({ name: "id", in: "path" });
  });
});

type Op = {
  security?: unknown[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

/** Redocly's validator: the OpenAPI 3.1 structure, every $ref, and every example against its schema. */
async function problems(doc: unknown) {
  const { createConfig, lintFromString } = await import("@redocly/openapi-core");
  const config = await createConfig({
    rules: {
      struct: "error",
      "no-unresolved-refs": "error",
      "operation-operationId-unique": "error",
      "no-invalid-media-type-examples": "error",
      "no-invalid-schema-examples": "error",
      "path-parameters-defined": "error",
    },
  });
  const found = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "/openapi.json", config });
  return found.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
}

describe("the OpenAPI document's validity, errors and examples", () => {
  it("validates as OpenAPI 3.1, and the validator does catch a broken document", async () => {
    const doc = await (await GET()).json();
    expect(await problems(doc)).toEqual([]);
    const broken = structuredClone(doc);
    delete broken.paths["/leads"].get.responses["200"].description;
    broken.paths["/tags"].post.requestBody.content["application/json"].example = { name: 42 };
    const found = await problems(broken);
    expect(found.some((p) => p.startsWith("struct"))).toBe(true);
    expect(found.some((p) => p.includes("no-invalid-media-type-examples"))).toBe(true);
  });

  it("lists on every operation the errors it can return, derived from its contract", async () => {
    const doc = await (await GET()).json();
    let count = 0;
    for (const [path, ops] of Object.entries<Record<string, Op>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        count++;
        const codes = Object.keys(op.responses);
        const where = `${method} ${path}`;
        // A public operation (`security: []`: accepting an invitation, a password reset) takes no credential, so no 401.
        expect(codes, where).toEqual(expect.arrayContaining(op.security?.length === 0 ? ["429"] : ["401", "429"]));
        if (path.includes("{")) expect(codes, where).toEqual(expect.arrayContaining(["400", "404"]));
        if (op.requestBody) expect(codes, where).toEqual(expect.arrayContaining(["400", "413"]));
        if (method === "post") expect(codes, where).toEqual(expect.arrayContaining(["409", "422"]));
      }
    }
    expect(count).toBeGreaterThan(140);
    expect(Object.keys(doc.paths["/campaigns"].post.responses)).toContain("403");
    expect(Object.keys(doc.paths["/campaigns"].get.responses)).not.toContain("403");
    expect(Object.keys(doc.paths["/campaigns"].get.responses)).not.toContain("404");
    const e422 = doc.components.responses.E422.content["application/json"];
    expect(e422.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(e422.examples.IDEMPOTENCY_MISMATCH.value.code).toBe("IDEMPOTENCY_MISMATCH");
    expect(doc.components.responses.E400.content["application/json"].examples.VALIDATION_ERROR.value.details.fieldErrors).toBeDefined();
  });

  it("gives every JSON request body and success response an example its schema accepts", async () => {
    const doc = await (await GET()).json();
    const missing: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, Op>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const req = op.requestBody?.content["application/json"];
        if (req && !("example" in req)) missing.push(`request ${method} ${path}`);
        const ok = Object.entries(op.responses).find(([s]) => s.startsWith("2"))?.[1];
        const res = ok?.content?.["application/json"];
        if (res && !("example" in res)) missing.push(`response ${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
    expect(doc.paths["/reports/campaigns.csv"].get.responses["200"].content["text/csv"].schema.type).toBe("string");
  });
});
