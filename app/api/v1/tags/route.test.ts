import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET, POST } from "./route";
import { DELETE } from "./[tagId]/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("/tags", () => {
  it("creates, lists, refuses a duplicate name and deletes", async () => {
    const a = await call(POST, "POST", "/tags", { key: ws.fullKey, body: { name: "Enterprise", color: "#3b82f6" } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: "Enterprise", color: "#3b82f6" });
    const dup = await call(POST, "POST", "/tags", { key: ws.fullKey, body: { name: "enterprise" } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("CONFLICT");
    const badColor = await call(POST, "POST", "/tags", { key: ws.fullKey, body: { name: "X", color: "blue" } });
    expect(badColor.status).toBe(400);
    expect(badColor.body.details.fieldErrors.color).toBeDefined();
    const list = await call(GET, "GET", "/tags", { key: ws.readKey });
    expect(list.body.tags.map((t: any) => t.name)).toEqual(["Enterprise"]);
    const other = await makeWorkspace();
    expect((await call(DELETE, "DELETE", "", { key: other.fullKey, params: { tagId: a.body.id } })).status).toBe(404);
    expect((await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { tagId: a.body.id } })).body).toEqual({
      deleted: true,
      id: a.body.id,
    });
    expect((await call(GET, "GET", "/tags", { key: ws.readKey })).body.tags).toEqual([]);
  });
});
