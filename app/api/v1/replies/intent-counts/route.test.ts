import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { replies } from "@/db/schema";
import { newId } from "@/lib/ids";
import { INTENTS } from "@/lib/inbox/schemas";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as THREADS } from "@/app/api/v1/replies/threads/route";
import { GET as OPENAPI } from "@/app/api/v1/openapi.json/route";
import { GET } from "./route";

type Intent = (typeof INTENTS)[number];

let ws: TestWorkspace;
let other: TestWorkspace;

/** Every intent at 0, then the ones given. */
const intents = (some: Partial<Record<Intent, number>>) => ({ ...Object.fromEntries(INTENTS.map((i) => [i, 0])), ...some });

async function leadsOf(w: TestWorkspace, emails: string[]): Promise<string[]> {
  const r = await call(CREATE_LEADS, "POST", "/leads", { key: w.fullKey, body: { leads: emails.map((email) => ({ email })) } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.leadIds;
}

function reply(
  w: TestWorkspace,
  mailboxId: string,
  o: { leadId: string | null; intent: Intent; at: string; read?: boolean; starred?: boolean; campaignId?: string; id?: string },
) {
  return {
    id: o.id ?? newId("rep"),
    workspaceId: w.workspaceId,
    mailboxId,
    leadId: o.leadId,
    campaignId: o.campaignId ?? null,
    messageId: `<${newId("rep")}@lead.test>`,
    subject: "Re: hello",
    textBody: "…",
    receivedAt: new Date(o.at),
    intent: o.intent,
    readAt: o.read ? new Date(o.at) : null,
    starred: o.starred ?? false,
  };
}

/**
 * Five conversations whose latest reply decides the intent (an older reply of another intent does not
 * count), one unmatched message and another workspace's conversation (neither counts):
 *  a: INTERESTED (cmp_one, read) then QUESTION (cmp_two, unread)
 *  b: INTERESTED (cmp_one, read, starred)
 *  c: INTERESTED (cmp_two, unread)
 *  d: OUT_OF_OFFICE then NOT_INTERESTED (cmp_two, read)
 *  e: UNCLASSIFIED and WRONG_PERSON at the same instant (no campaign, read): the higher id is the latest
 */
beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "sam@counts.test");
  const otherMbx = await insertMailbox(other.workspaceId, "oz@counts.test");
  const [a, b, c, d, e] = await leadsOf(ws, ["a@lead.test", "b@lead.test", "c@lead.test", "d@lead.test", "e@lead.test"]);
  const [x] = await leadsOf(other, ["x@lead.test"]);
  await getDb()
    .insert(replies)
    .values([
      reply(ws, mbx.id, { leadId: a, intent: "INTERESTED", at: "2026-11-01T10:00:00Z", read: true, campaignId: "cmp_one" }),
      reply(ws, mbx.id, { leadId: a, intent: "QUESTION", at: "2026-11-02T10:00:00Z", campaignId: "cmp_two" }),
      reply(ws, mbx.id, { leadId: b, intent: "INTERESTED", at: "2026-11-01T11:00:00Z", read: true, starred: true, campaignId: "cmp_one" }),
      reply(ws, mbx.id, { leadId: c, intent: "INTERESTED", at: "2026-11-01T12:00:00Z", campaignId: "cmp_two" }),
      reply(ws, mbx.id, { leadId: d, intent: "OUT_OF_OFFICE", at: "2026-11-01T09:00:00Z", read: true, campaignId: "cmp_two" }),
      reply(ws, mbx.id, { leadId: d, intent: "NOT_INTERESTED", at: "2026-11-03T09:00:00Z", read: true, campaignId: "cmp_two" }),
      reply(ws, mbx.id, { leadId: e, intent: "UNCLASSIFIED", at: "2026-11-01T08:00:00Z", read: true, id: "rep_tie_a" }),
      reply(ws, mbx.id, { leadId: e, intent: "WRONG_PERSON", at: "2026-11-01T08:00:00Z", read: true, id: "rep_tie_b" }),
      reply(ws, mbx.id, { leadId: null, intent: "UNCLASSIFIED", at: "2026-11-04T08:00:00Z" }),
      reply(other, otherMbx.id, { leadId: x, intent: "INTERESTED", at: "2026-11-01T08:00:00Z", campaignId: "cmp_one" }),
    ]);
});

describe("GET /api/v1/replies/intent-counts", () => {
  it("counts conversations by their latest reply's intent, with all and unread ones, in one call", async () => {
    const r = await call(GET, "GET", "/replies/intent-counts", { key: ws.readKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ all: 5, unread: 2, intents: intents({ QUESTION: 1, INTERESTED: 2, NOT_INTERESTED: 1, WRONG_PERSON: 1 }) });
  });

  it("takes the filters of /replies/threads other than intent", async () => {
    const counts = async (qs: string) => (await call(GET, "GET", `/replies/intent-counts?${qs}`, { key: ws.readKey })).body;
    // The campaign filter applies to replies before the latest is picked, as in /replies/threads: a's cmp_one reply is INTERESTED.
    expect(await counts("campaignId=cmp_one")).toEqual({ all: 2, unread: 0, intents: intents({ INTERESTED: 2 }) });
    expect(await counts("campaignId=cmp_two")).toEqual({
      all: 3,
      unread: 2,
      intents: intents({ QUESTION: 1, INTERESTED: 1, NOT_INTERESTED: 1 }),
    });
    expect(await counts("unread=true")).toEqual({ all: 2, unread: 2, intents: intents({ QUESTION: 1, INTERESTED: 1 }) });
    expect(await counts("starred=true")).toEqual({ all: 1, unread: 0, intents: intents({ INTERESTED: 1 }) });
    expect(await counts("unread=false&starred=false")).toMatchObject({ all: 5, unread: 2 });
    expect(await counts("campaignId=cmp_none")).toEqual({ all: 0, unread: 0, intents: intents({}) });
  });

  it("agrees with the totals of /replies/threads for every intent and filter", async () => {
    for (const qs of ["", "campaignId=cmp_one", "campaignId=cmp_two", "unread=true", "starred=true"]) {
      const counts = (await call(GET, "GET", `/replies/intent-counts?${qs}`, { key: ws.readKey })).body;
      const total = async (extra: string) =>
        (await call(THREADS, "GET", `/replies/threads?limit=1&${[qs, extra].filter(Boolean).join("&")}`, { key: ws.readKey })).body.total;
      expect(await total(""), qs).toBe(counts.all);
      expect(await total("unread=true"), qs).toBe(counts.unread);
      for (const i of INTENTS) expect(await total(`intent=${i}`), `${qs} ${i}`).toBe(counts.intents[i]);
    }
  });

  it("sees only the caller's workspace, needs credentials and validates its filters", async () => {
    expect((await call(GET, "GET", "/replies/intent-counts", { key: other.readKey })).body).toEqual({
      all: 1,
      unread: 1,
      intents: intents({ INTERESTED: 1 }),
    });
    expect((await call(GET, "GET", "/replies/intent-counts")).status).toBe(401);
    const bad = await call(GET, "GET", "/replies/intent-counts?unread=yes", { key: ws.readKey });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(bad.body.details.fieldErrors)).toContain("unread");
  });

  it("is in the OpenAPI document with its filters and response schema", async () => {
    const doc = await (await OPENAPI()).json();
    const op = doc.paths["/replies/intent-counts"].get;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["assignee", "campaignId", "starred", "unread"]);
    const schema = op.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["all", "unread", "intents"]));
    expect(Object.keys(schema.properties.intents.properties).sort()).toEqual([...INTENTS].sort());
  });
});
