import { describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { emails, leads } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { isFreeMailDomain } from "@/lib/mail/free-mail";
import { makeWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { ingestMessage } from "./ingest";

const clock = new ManualClock(new Date("2026-11-10T10:00:00Z"));

function message(id: string, from: string, body: string) {
  return simpleParser(
    [
      `From: ${from}`,
      "To: sam@seller.test",
      "Subject: Re: Idea",
      `Message-ID: <${id}@sender.test>`,
      "Date: Tue, 10 Nov 2026 09:00:00 +0000",
      "Content-Type: text/plain; charset=utf-8",
      "",
      body,
      "",
    ].join("\n"),
  );
}

describe("colleague matching", () => {
  it("takes someone at a lead's company domain for a colleague, never a stranger at a free mail service", async () => {
    const ws = await makeWorkspace();
    const mbx = await insertMailbox(ws.workspaceId, "sam@seller.test");
    const mb = { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email };
    const lead = async (email: string) => {
      const id = newId("lead");
      await getDb().insert(leads).values({ id, workspaceId: ws.workspaceId, email });
      await getDb()
        .insert(emails)
        .values({
          id: newId("eml"),
          workspaceId: ws.workspaceId,
          mailboxId: mbx.id,
          leadId: id,
          leadEmail: email,
          campaignId: "cmp_x",
          stepOrder: 0,
          messageId: `<${id}@seller.test>`,
          subject: "Idea",
          status: "SENT",
          createdAt: new Date("2026-11-09T10:00:00Z"),
        });
      return id;
    };
    const dana = await lead("dana@acme-co.test");
    await lead("pat@gmail.com");
    await lead("lou@outlook.com");

    const boss = await ingestMessage(getDb(), clock, mb, await message("c1", "Boss <boss@acme-co.test>", "I look after this for Dana."), {
      folder: "INBOX",
    });
    expect(boss?.leadId).toBe(dana);
    for (const [id, from] of [
      ["c2", "someone@gmail.com"],
      ["c3", "Other <other@Outlook.com>"],
    ]) {
      const r = await ingestMessage(getDb(), clock, mb, await message(id, from, "Who are you?"), { folder: "INBOX" });
      expect(r).toMatchObject({ leadId: null, duplicate: false }); // kept, unmatched
    }
    expect([
      isFreeMailDomain("gmail.com"),
      isFreeMailDomain("Yahoo.co.uk"),
      isFreeMailDomain("web.de"),
      isFreeMailDomain("acme-co.test"),
    ]).toEqual([true, true, true, false]);
  });
});
