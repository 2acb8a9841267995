import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { campaignLeads, campaigns, leads } from "@/db/schema";
import { newId } from "@/lib/ids";
import { claimDue, mailboxesWithDueWork } from "@/lib/sending/engine/claim";
import { insertMailbox } from "@/test/factories";
import { makeWorkspace } from "@/test/helpers";

describe("seed mailboxes and campaign sending", () => {
  it("never claims a seed mailbox for campaign email, even with due leads assigned to it", async () => {
    const ws = await makeWorkspace();
    const sender = await insertMailbox(ws.workspaceId, "sender@seedsend.test");
    const seed = await insertMailbox(ws.workspaceId, "seed@seedsend.test", { isSeed: true });
    const campaignId = newId("cmp");
    await getDb().insert(campaigns).values({ id: campaignId, workspaceId: ws.workspaceId, name: "C", status: "ACTIVE" });
    for (const mbx of [sender, seed]) {
      const leadId = newId("lead");
      await getDb()
        .insert(leads)
        .values({ id: leadId, workspaceId: ws.workspaceId, email: `lead-of-${mbx.email}` });
      await getDb().insert(campaignLeads).values({ workspaceId: ws.workspaceId, campaignId, leadId, mailboxId: mbx.id, status: "ACTIVE" });
    }
    const now = new Date();
    const due = await mailboxesWithDueWork(getDb(), now);
    expect(due).toContain(sender.id);
    expect(due).not.toContain(seed.id);
    const claim = await claimDue(getDb(), now, 10, [sender.id, seed.id]);
    expect(claim.mailboxIds).toEqual([sender.id]);
  });
});
