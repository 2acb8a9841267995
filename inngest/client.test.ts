import { systemCtx } from "../lib/ctx";
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { sendCampaignEmailsJob } from "./functions/send-campaign-emails";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { inngestFunctions } from "./client";
import { jobs } from "./functions";

afterAll(() => closeAllTransports());

describe("Inngest functions", () => {
  it("serves every job, and fans the send job out per mailbox with concurrency keyed by mailbox", () => {
    const byId = new Map(
      inngestFunctions.map((f) => [
        (f as unknown as { opts: { id: string } }).opts.id,
        (f as unknown as { opts: Record<string, any> }).opts,
      ]),
    );
    for (const j of jobs.filter((j) => !j.fanOut)) expect(byId.get(j.name)?.triggers).toEqual([{ cron: j.cron }]);
    expect(byId.get("send-campaign-emails-fan-out")?.triggers).toEqual([{ cron: "* * * * *" }]);
    expect(byId.get("send-campaign-emails")).toMatchObject({
      triggers: [{ event: "outreach/mailbox.send-due" }],
      concurrency: { key: "event.data.key", limit: 1 },
    });
  });

  it("lists the mailboxes with due work, and one run sends only from its mailbox", async () => {
    const world = await startMailWorld({ domain: "fan.test", users: { "p@fan.test": "pw", "q@fan.test": "pw" } });
    const ws = await makeWorkspace();
    const ids = [];
    for (const e of ["p", "q"])
      ids.push(
        (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: `${e}@fan.test` }, body: { appPassword: "pw" } })).body
          .id as string,
      );
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Fan", sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] } })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: { steps: [{ stepOrder: 0, subject: "S", bodyTemplate: "B" }] },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: ids } });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "a@sink.test" }, { email: "b@sink.test" }] } })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds } });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });
    const ctx = systemCtx(undefined, { db: getDb(), clock: new ManualClock(new Date()) });
    const fan = sendCampaignEmailsJob.fanOut!;
    expect((await fan.list(ctx)).sort()).toEqual([...ids].sort());
    expect(await fan.runOne(ctx, ids[1])).toMatchObject({ mailboxes: 1, sent: 1 });
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    expect(rows.map((r) => r.mailboxId)).toEqual([ids[1]]);
    expect(await fan.list(ctx)).toEqual([ids[0]]); // q waits its gap; p still has work
    closeAllTransports(); // the pooled connection would keep the server open
    await world.close();
  });
});
