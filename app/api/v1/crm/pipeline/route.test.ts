import { beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as PIPELINE } from "./route";

let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));

beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("GET /crm/pipeline paging", () => {
  it("reports every lead that replied in X-Total-Count on every page, past the last one too", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "pam@pipe.test");
    const addrs = ["a@lead.test", "b@lead.test", "c@lead.test", "d@lead.test", "e@lead.test"];
    await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: addrs.map((email) => ({ email })) } });
    // Five leads replied (one twice), all at the same time: the order must still be stable across pages.
    for (const [i, from] of [...addrs, addrs[0]].entries()) {
      const raw = `From: ${from}\r\nTo: pam@pipe.test\r\nSubject: Re: Hi\r\nMessage-ID: <p${i}@lead.test>\r\nDate: Tue, 03 Nov 2026 11:00:00 +0000\r\n\r\nSounds good\r\n`;
      await ingestMessage(getDb(), clock, { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email }, await simpleParser(raw), {
        folder: "INBOX",
      });
    }
    const page = (n: number) => call(PIPELINE, "GET", `/crm/pipeline?page=${n}&limit=2`, { key: ws.readKey });
    const seen: string[] = [];
    for (const [n, size] of [
      [1, 2],
      [2, 2],
      [3, 1],
    ]) {
      const r = await page(n);
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(size);
      expect([r.headers.get("X-Total-Count"), r.headers.get("X-Page"), r.headers.get("X-Limit")]).toEqual(["5", String(n), "2"]);
      seen.push(...r.body.map((row: { lead: { email: string } }) => row.lead.email));
    }
    expect(seen.sort()).toEqual(addrs);
    const past = await page(4);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get("X-Total-Count")).toBe("5");
    const far = await page(50);
    expect([far.body, far.headers.get("X-Total-Count"), far.headers.get("X-Page")]).toEqual([[], "5", "50"]);

    // A workspace where nobody replied: 0, and an empty array.
    const empty = await makeWorkspace();
    const none = await call(PIPELINE, "GET", "/crm/pipeline", { key: empty.readKey });
    expect([none.body, none.headers.get("X-Total-Count")]).toEqual([[], "0"]);
  });
});
