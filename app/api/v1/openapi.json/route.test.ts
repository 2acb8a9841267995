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
