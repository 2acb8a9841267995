import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails, replies } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { closeAllTransports } from "@/lib/sending/transports";
import { sendDue } from "@/lib/sending/engine";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { GET as THREADS } from "@/app/api/v1/replies/threads/route";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const mailboxIds: string[] = [];

beforeAll(async () => {
  world = await startMailWorld({
    domain: "body.test",
    users: { "ann@body.test": "pw", "bob@body.test": "pw" },
    rejectRecipients: ["gone@bounce.test"],
  });
  ws = await makeWorkspace();
  for (const email of ["ann@body.test", "bob@body.test"])
    mailboxIds.push(
      (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email }, body: { appPassword: "pw", senderName: "Ann Body" } })).body.id,
    );
}, 60_000);
afterAll(async () => {
  closeAllTransports();
  await world.close();
});

describe("GET /replies/thread/<leadId>: campaign emails carry their body", () => {
  it("shows the rendered text a sent campaign email had, and a bounced one's; an email recorded before bodies were kept has body null", async () => {
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: { name: "Bodies", sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 1 },
      })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        steps: [
          {
            stepOrder: 0,
            subject: "Hi {{firstName}}",
            bodyTemplate: "Hello {{firstName}},\n\nA short note for {{companyName}}.\n\n{{senderName}}",
          },
        ],
      },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds } });
    const created = await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: {
        leads: [
          { email: "dana@leads.test", firstName: "Dana", companyName: "Acme" },
          { email: "gone@bounce.test", firstName: "Gil", companyName: "Gone Inc" },
        ],
      },
    });
    const [dana, gil] = created.body.leadIds as string[];
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds: [dana, gil] } });
    expect(
      (await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } })).body.status,
    ).toBe("ACTIVE");

    expect(await sendDue(getDb(), new ManualClock(new Date()))).toMatchObject({ sent: 1, bounced: 1 });

    const thread = await call(THREAD, "GET", `/replies/thread/${dana}`, { key: ws.readKey, params: { leadId: dana } });
    expect(thread.status).toBe(200);
    const [m] = thread.body.messages;
    expect(m).toMatchObject({
      kind: "campaign",
      direction: "outbound",
      subject: "Hi Dana",
      status: "SENT",
      campaign: { id: c.id, name: "Bodies" },
    });
    expect(m.body).toBe("Hello Dana,\n\nA short note for Acme.\n\nAnn Body");
    // What the lead received is that text.
    const wire = world.smtp.received.find((r) => r.to.includes("dana@leads.test"))!;
    expect(wire.parsed.text?.trimEnd()).toBe(m.body);

    const bounced = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: gil } })).body.messages[0];
    expect(bounced).toMatchObject({ kind: "campaign", status: "BOUNCED", body: "Hello Gil,\n\nA short note for Gone Inc.\n\nAnn Body" });

    // A row written before the body columns existed keeps null.
    const [row] = await getDb().select().from(emails).where(eq(emails.leadId, dana));
    await getDb().update(emails).set({ bodyText: null, bodyHtml: null }).where(eq(emails.id, row.id));
    const old = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: dana } })).body.messages[0];
    expect(old).toMatchObject({ kind: "campaign", subject: "Hi Dana", body: null });
  });
});

describe("GET /replies/threads: total is every conversation on any page", () => {
  it("reports the same total on the first page, the last one and a page past the end", async () => {
    const created = await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: ["p1", "p2", "p3"].map((n) => ({ email: `${n}@paging.test` })) },
    });
    const leadIds = created.body.leadIds as string[];
    await getDb()
      .insert(replies)
      .values(
        leadIds.flatMap((leadId, i) =>
          [0, 1].map((k) => ({
            id: newId("rep"),
            workspaceId: ws.workspaceId,
            mailboxId: mailboxIds[0],
            leadId,
            messageId: `<${newId("rep")}@paging.test>`,
            subject: "Re: hi",
            textBody: "ok",
            receivedAt: new Date(Date.UTC(2026, 10, 1, i, k)),
          })),
        ),
      );
    const page = async (p: number, extra = "") => {
      const r = await call(THREADS, "GET", `/replies/threads?limit=2&page=${p}${extra}`, { key: ws.readKey });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { threads: { leadId: string }[]; total: number; page: number; limit: number };
    };
    const first = await page(1);
    expect(first.total).toBe(3);
    expect(first.threads.map((t) => t.leadId)).toEqual([leadIds[2], leadIds[1]]);
    const last = await page(2);
    expect(last).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(last.threads.map((t) => t.leadId)).toEqual([leadIds[0]]);
    const past = await page(3);
    expect(past).toMatchObject({ threads: [], total: 3, page: 3, limit: 2 });
    expect((await page(50)).total).toBe(3);
    // With a filter that matches nothing, the total is 0 on every page.
    expect(await page(2, "&intent=INTERESTED")).toMatchObject({ threads: [], total: 0 });
  });
});

describe("GET /replies/thread/<leadId>: order", () => {
  it("puts a reply after the email it answers even when its Date header (whole seconds) reads earlier than our send time", async () => {
    const leadId = (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "quick@order.test" }] } })).body
      .leadIds[0];
    const sentAt = new Date("2026-11-20T10:00:54.739Z");
    const emailId = newId("eml");
    const messageId = `<${emailId}@body.test>`;
    await getDb().insert(emails).values({
      id: emailId,
      workspaceId: ws.workspaceId,
      mailboxId: mailboxIds[0],
      leadId,
      leadEmail: "quick@order.test",
      campaignId: "cmp_order",
      stepOrder: 0,
      messageId,
      subject: "Idea",
      status: "SENT",
      createdAt: sentAt,
      sentAt,
    });
    // An auto-reply in the same second: its Date header says …54.000, before our …54.739.
    await getDb()
      .insert(replies)
      .values({
        id: newId("rep"),
        workspaceId: ws.workspaceId,
        mailboxId: mailboxIds[0],
        leadId,
        emailId,
        messageId: "<ooo@order.test>",
        inReplyTo: messageId,
        references: [messageId],
        receivedAt: new Date("2026-11-20T10:00:54.000Z"),
        subject: "Re: Idea",
      });
    // A reply that answers nothing of ours keeps its own time.
    await getDb()
      .insert(replies)
      .values({
        id: newId("rep"),
        workspaceId: ws.workspaceId,
        mailboxId: mailboxIds[0],
        leadId,
        messageId: "<early@order.test>",
        receivedAt: new Date("2026-11-20T09:00:00.000Z"),
        subject: "Before",
      });
    const t = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId } })).body;
    expect(t.messages.map((m: any) => [m.direction, m.subject, m.timestamp])).toEqual([
      ["inbound", "Before", "2026-11-20T09:00:00.000Z"],
      ["outbound", "Idea", "2026-11-20T10:00:54.739Z"],
      ["inbound", "Re: Idea", "2026-11-20T10:00:54.000Z"], // shown with its own time, placed after what it answers
    ]);
  });
});
