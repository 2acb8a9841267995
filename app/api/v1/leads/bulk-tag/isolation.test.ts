import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as TIMELINE } from "@/app/api/v1/leads/[id]/timeline/route";
import { GET as LIST_TAGS, POST as CREATE_TAG } from "@/app/api/v1/tags/route";
import { DELETE as DELETE_TAG, PATCH as PATCH_TAG } from "@/app/api/v1/tags/[tagId]/route";
import { POST as UNTAG } from "../bulk-untag/route";
import { POST as TAG } from "./route";

let mine: TestWorkspace;
let theirs: TestWorkspace;

beforeAll(async () => {
  mine = await makeWorkspace();
  theirs = await makeWorkspace();
});

const leadsIn = async (ws: TestWorkspace, emails: string[]) =>
  (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: emails.map((email) => ({ email })) } })).body
    .leadIds as string[];
const tagIn = async (ws: TestWorkspace, name: string) =>
  (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name } })).body.id as string;
const tagsOf = async (ws: TestWorkspace) =>
  (await call(LIST_TAGS, "GET", "/tags", { key: ws.readKey })).body.tags as { id: string; name: string; leadCount: number }[];
const kindsOf = async (ws: TestWorkspace, id: string) =>
  ((await call(TIMELINE, "GET", `/leads/${id}/timeline`, { key: ws.readKey, params: { id } })).body.events as { kind: string }[]).map(
    (e) => e.kind,
  );

describe("bulk tagging and tag edits stay inside the caller's workspace", () => {
  it("never tags another workspace's leads, nor with another workspace's tag", async () => {
    const [own] = await leadsIn(mine, ["iso-own@example.com"]);
    const [foreign] = await leadsIn(theirs, ["iso-foreign@example.com"]);
    const ownTag = await tagIn(mine, "Iso mine");
    const foreignTag = await tagIn(theirs, "Iso theirs");

    const withForeignLead = await call(TAG, "POST", "/leads/bulk-tag", {
      key: mine.fullKey,
      body: { leadIds: [own, foreign], tagId: ownTag },
    });
    expect(withForeignLead.status).toBe(200);
    expect(withForeignLead.body).toMatchObject({ tagged: 1, notFound: [foreign] });
    expect(await kindsOf(theirs, foreign)).not.toContain("tagged");

    const withForeignTag = await call(TAG, "POST", "/leads/bulk-tag", { key: mine.fullKey, body: { leadIds: [own], tagId: foreignTag } });
    expect(withForeignTag.status).toBe(404);
    expect((await tagsOf(theirs)).find((t) => t.id === foreignTag)?.leadCount).toBe(0);
  });

  it("never takes another workspace's tag off its leads, nor renames or deletes that tag", async () => {
    const [foreign] = await leadsIn(theirs, ["iso-untag@example.com"]);
    const foreignTag = await tagIn(theirs, "Iso kept");
    await call(TAG, "POST", "/leads/bulk-tag", { key: theirs.fullKey, body: { leadIds: [foreign], tagId: foreignTag } });

    const untag = await call(UNTAG, "POST", "/leads/bulk-untag", { key: mine.fullKey, body: { leadIds: [foreign], tagId: foreignTag } });
    expect(untag.status).toBe(404);
    const patch = await call(PATCH_TAG, "PATCH", `/tags/${foreignTag}`, {
      key: mine.fullKey,
      params: { tagId: foreignTag },
      body: { name: "Iso renamed" },
    });
    expect(patch.status).toBe(404);
    const del = await call(DELETE_TAG, "DELETE", `/tags/${foreignTag}`, { key: mine.fullKey, params: { tagId: foreignTag } });
    expect(del.status).toBe(404);

    const kept = (await tagsOf(theirs)).find((t) => t.id === foreignTag);
    expect(kept).toMatchObject({ name: "Iso kept", leadCount: 1 });
    expect(await kindsOf(theirs, foreign)).not.toContain("untagged");
  });
});
