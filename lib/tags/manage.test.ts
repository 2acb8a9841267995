import { beforeAll, describe, expect, it } from "vitest";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as TAG_LEAD } from "@/app/api/v1/leads/[id]/tags/route";
import { POST as TAG_MAILBOX } from "@/app/api/v1/mailboxes/[id]/tags/route";
import { GET as LIST, POST as CREATE } from "@/app/api/v1/tags/route";
import { DELETE, PATCH } from "@/app/api/v1/tags/[tagId]/route";
import { insertMailbox } from "@/test/factories";
import { addMember, call, makeWorkspace, type TestWorkspace } from "@/test/helpers";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const create = (body: unknown, key = ws.fullKey) => call(CREATE, "POST", "/tags", { key, body });
const patch = (tagId: string, body: unknown, key = ws.fullKey) => call(PATCH, "PATCH", "", { key, params: { tagId }, body });
const list = async () => (await call(LIST, "GET", "/tags", { key: ws.readKey })).body.tags as any[];

describe("PATCH /tags/<tagId>: rename and recolour", () => {
  it("renames and recolours; only sent fields change; null clears the colour", async () => {
    const t = (await create({ name: "Warm", color: "#ef4444" })).body;
    const renamed = await patch(t.id, { name: "  Warm leads " });
    expect([renamed.status, renamed.body]).toEqual([200, { ...t, name: "Warm leads" }]);
    expect((await patch(t.id, { color: "#22C55E" })).body).toMatchObject({ name: "Warm leads", color: "#22C55E" });
    expect((await patch(t.id, { color: null })).body).toMatchObject({ name: "Warm leads", color: null });
    expect((await list()).find((x) => x.id === t.id)).toMatchObject({ name: "Warm leads", color: null });
  });

  it("a colour that is not #rrggbb is 400 on color, at create and at update, and nothing changes", async () => {
    const t = (await create({ name: "Hexed", color: "#112233" })).body;
    for (const color of ["red", "#abc", "#12345g", "112233", "#1122334"]) {
      const bad = await patch(t.id, { color });
      expect([bad.status, bad.body.code, Object.keys(bad.body.details.fieldErrors)], color).toEqual([400, "VALIDATION_ERROR", ["color"]]);
      expect(bad.body.details.fieldErrors.color[0]).toContain("#3b82f6");
      const badCreate = await create({ name: `Hexed ${color}`, color });
      expect([badCreate.status, Object.keys(badCreate.body.details.fieldErrors)]).toEqual([400, ["color"]]);
    }
    expect((await list()).find((x) => x.id === t.id).color).toBe("#112233");
  });

  it("a name another tag has (any case) is 409; an empty body, an empty name or an unknown field is 400", async () => {
    const a = (await create({ name: "Alpha" })).body;
    await create({ name: "Beta" });
    const clash = await patch(a.id, { name: "beta" });
    expect([clash.status, clash.body.code, clash.body.error]).toEqual([409, "CONFLICT", 'A tag named "beta" already exists']);
    expect((await patch(a.id, { name: "ALPHA" })).body.name).toBe("ALPHA"); // its own name in another case
    expect((await patch(a.id, {})).status).toBe(400);
    expect((await patch(a.id, { name: "  " })).body.details.fieldErrors.name).toBeDefined();
    expect((await patch(a.id, { name: "x", shade: "dark" })).status).toBe(400);
  });

  it("another workspace's tag is 404; a read key or a client may not change one", async () => {
    const t = (await create({ name: "Private" })).body;
    const other = await makeWorkspace();
    expect((await patch(t.id, { name: "Taken" }, other.fullKey)).status).toBe(404);
    expect((await patch(t.id, { name: "Taken" }, ws.readKey)).status).toBe(403);
    const client = await addMember(ws.workspaceId, "client");
    expect((await patch(t.id, { name: "Taken" }, client.key)).status).toBe(403);
    expect((await list()).find((x) => x.id === t.id).name).toBe("Private");
  });
});

describe("GET /tags counts what carries each tag", () => {
  it("leadCount and mailboxCount per tag (zero for an unused one); deleting detaches and the tag goes", async () => {
    const own = await makeWorkspace();
    const t = (await create({ name: "Counted" }, own.fullKey)).body;
    const unused = (await create({ name: "Unused" }, own.fullKey)).body;
    const leads = await call(CREATE_LEADS, "POST", "/leads", {
      key: own.fullKey,
      body: { leads: [{ email: "c1@counted.test" }, { email: "c2@counted.test" }, { email: "c3@counted.test" }] },
    });
    const ids: string[] = leads.body.leads.map((l: any) => l.id);
    for (const id of ids.slice(0, 2)) {
      expect((await call(TAG_LEAD, "POST", "", { key: own.fullKey, params: { id }, body: { tagId: t.id } })).status).toBe(200);
    }
    const mbx = await insertMailbox(own.workspaceId, "sender@counted.test");
    expect((await call(TAG_MAILBOX, "POST", "", { key: own.fullKey, params: { id: mbx.id }, body: { tagId: t.id } })).status).toBe(200);
    const tags = (await call(LIST, "GET", "/tags", { key: own.readKey })).body.tags;
    expect(tags.map((x: any) => [x.name, x.leadCount, x.mailboxCount])).toEqual([
      ["Counted", 2, 1],
      ["Unused", 0, 0],
    ]);
    expect((await call(DELETE, "DELETE", "", { key: own.fullKey, params: { tagId: t.id } })).status).toBe(200);
    expect((await call(LIST, "GET", "/tags", { key: own.readKey })).body.tags.map((x: any) => x.id)).toEqual([unused.id]);
  });
});
