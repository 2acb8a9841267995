import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { leadTags, tags } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { imapClient } from "@/lib/mail/imap";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startImapPeer, type ImapPeer } from "@/test/peers/imap";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as GET_LEAD } from "@/app/api/v1/leads/[id]/route";
import { GET as LIST_TAGS, POST as CREATE_TAG } from "@/app/api/v1/tags/route";
import { GET as AI_GET, PATCH as AI_PATCH } from "@/app/api/v1/ai-settings/route";
import { ingestMessage } from "./ingest";
import { syncMailbox } from "./sync";

let peer: ImapPeer;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));

beforeAll(async () => {
  peer = await startImapPeer({ users: { "tia@tag.test": "pw" } });
  ws = await makeWorkspace();
}, 60_000);
afterAll(async () => peer.close());

function raw(from: string, id: string, body: string, subject = "Re: Idea") {
  return [
    `From: ${from}`,
    "To: tia@tag.test",
    `Subject: ${subject}`,
    `Message-ID: <${id}@lead.test>`,
    "Date: Tue, 03 Nov 2026 11:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");
}

async function append(raws: string[]) {
  const c = imapClient({ host: peer.host, port: peer.port, security: "NONE", username: "tia@tag.test", password: "pw" });
  await c.connect();
  for (const r of raws) await c.append("INBOX", r);
  await c.logout();
}

async function tagNamesOf(leadId: string): Promise<string[]> {
  const lead = (await call(GET_LEAD, "GET", "", { key: ws.readKey, params: { id: leadId } })).body;
  return (lead.tags as { name: string }[]).map((t) => t.name).sort();
}

describe("autoTagOnReply", () => {
  it("tags the lead of a classified reply with its intent when on, in the batch sync and in direct ingestion, reusing a tag of that name", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "tia@tag.test", {
      imapHost: peer.host,
      imapPort: peer.port,
      imapPasswordEnc: encryptSecret("pw"),
    });
    const mb = { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email };
    const addrs = ["ada@lead.test", "bo@lead.test", "cy@lead.test", "di@lead.test", "ed@lead.test"];
    const ids: string[] = (
      await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: addrs.map((email) => ({ email })) } })
    ).body.leadIds;
    const [ada, bo, cy, di, ed] = ids;

    // Off (the default): nothing is tagged.
    expect((await call(AI_GET, "GET", "", { key: ws.readKey })).body.autoTagOnReply).toBe(false);
    expect(
      (await ingestMessage(getDb(), clock, mb, await simpleParser(raw("ada@lead.test", "off1", "Sounds great, let's talk")), {
        folder: "INBOX",
      }))!.intent,
    ).toBe("INTERESTED");
    expect(await tagNamesOf(ada)).toEqual([]);
    expect(await getDb().select().from(tags).where(eq(tags.workspaceId, ws.workspaceId))).toEqual([]);

    // On; the workspace already has an "interested" tag (any case): that one is used.
    expect((await call(AI_PATCH, "PATCH", "", { key: ws.fullKey, body: { autoTagOnReply: true } })).body.autoTagOnReply).toBe(true);
    const own = (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "interested", color: "#00aa00" } })).body;

    // The batch path: one IMAP sync stores these in one batch.
    await append([
      raw("ada@lead.test", "b1", "Sounds great, let's talk"),
      raw("bo@lead.test", "b2", "What does it cost?"),
      raw("cy@lead.test", "b3", "Not interested, thanks"),
      raw("ada@lead.test", "b4", "Also: which plans are there?"),
      raw("di@lead.test", "b5", "ok"), // UNCLASSIFIED: no tag
      raw("stranger@nowhere.test", "b6", "I'd love to hear more"), // unmatched: no lead to tag
      raw("ed@lead.test", "b7", "I am out of the office until Monday.", "Automatic reply: Idea"),
    ]);
    const r = await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx);
    expect(r.stored).toBe(7);
    expect(await tagNamesOf(ada)).toEqual(["Question", "interested"]);
    expect(await tagNamesOf(bo)).toEqual(["Question"]);
    expect(await tagNamesOf(cy)).toEqual(["Not interested"]);
    expect(await tagNamesOf(di)).toEqual([]);
    expect(await tagNamesOf(ed)).toEqual(["Out of office"]);
    const all = (await call(LIST_TAGS, "GET", "", { key: ws.readKey })).body.tags as { id: string; name: string; color: string | null }[];
    expect(all.map((t) => t.name).sort()).toEqual(["Not interested", "Out of office", "Question", "interested"]); // one per name, the own one kept
    expect(all.find((t) => t.name === "interested")).toMatchObject({ id: own.id, color: "#00aa00" });

    // The single-message path, and a duplicate that changes nothing (a tag taken off stays off).
    const question = all.find((t) => t.name === "Question")!;
    await getDb().delete(leadTags).where(eq(leadTags.tagId, question.id));
    const dup = await ingestMessage(getDb(), clock, mb, await simpleParser(raw("bo@lead.test", "b2", "What does it cost?")), {
      folder: "INBOX",
    });
    expect(dup!.duplicate).toBe(true);
    expect(await tagNamesOf(bo)).toEqual([]);
    // Someone creates the tag while the reply is being stored: the reply waits for it and uses it.
    const parsed = await simpleParser(raw("di@lead.test", "d1", "Wrong person, I have left the company"));
    let pending: ReturnType<typeof ingestMessage> | undefined;
    await getDb().transaction(async (tx) => {
      await tx.insert(tags).values({ id: "tag_racing", workspaceId: ws.workspaceId, name: "WRONG PERSON" });
      pending = ingestMessage(getDb(), clock, mb, parsed, { folder: "INBOX" });
      await new Promise((r) => setTimeout(r, 300));
    });
    expect((await pending)!.intent).toBe("WRONG_PERSON");
    expect(await tagNamesOf(di)).toEqual(["WRONG PERSON"]);
    expect((await getDb().select().from(leadTags).where(eq(leadTags.leadId, di))).map((t) => t.tagId)).toEqual(["tag_racing"]);
    const unsub = await ingestMessage(
      getDb(),
      clock,
      mb,
      await simpleParser(raw("cy@lead.test", "d2", "Please remove me from your list")),
      { folder: "INBOX" },
    );
    expect(unsub!.intent).toBe("UNSUBSCRIBE_REQUEST"); // the transaction path (suppression) tags too
    expect(await tagNamesOf(cy)).toEqual(["Not interested", "Unsubscribe request"]);

    // Off again: nothing more is tagged.
    await call(AI_PATCH, "PATCH", "", { key: ws.fullKey, body: { autoTagOnReply: false } });
    await ingestMessage(getDb(), clock, mb, await simpleParser(raw("bo@lead.test", "d3", "Sounds great, let's talk")), { folder: "INBOX" });
    expect(await tagNamesOf(bo)).toEqual([]);
  });
});
