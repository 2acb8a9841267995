import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails, mailboxes } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { GET as LIST } from "./route";
import { DELETE, GET as GET_ONE, PATCH } from "./[id]/route";
import { PUT as CONNECT } from "./by-email/[email]/route";
import { POST as IMPORT } from "./bulk-import/route";
import { PATCH as BULK_CAP } from "./bulk-daily-cap/route";
import { POST as TEST_SEND } from "./[id]/test-send/route";
import { POST as ATTACH } from "./[id]/tags/route";
import { DELETE as DETACH } from "./[id]/tags/[tagId]/route";
import { GET as LIST_DOMAINS } from "../domains/route";
import { POST as CREATE_TAG } from "../tags/route";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const PASSWORD = "abcdefghijklmnop";

beforeAll(async () => {
  world = await startMailWorld({
    domain: "acme.test",
    users: { "ann@acme.test": PASSWORD, "bob@acme.test": PASSWORD, "cat@acme.test": PASSWORD },
    rejectRecipients: ["gone@elsewhere.test"],
    zone: { MX: { "gmail-hosted.test": [{ exchange: "aspmx.l.google.com", priority: 1 }] }, TXT: { "nomx.test": ["hello"] } },
    // A provider whose server is down: nothing listens on port 1.
    extraProviders: {
      "down.test": { smtpHost: "127.0.0.1", smtpPort: 1, smtpSecurity: "NONE", imapHost: "127.0.0.1", imapPort: 1, imapSecurity: "NONE" },
    },
  });
  ws = await makeWorkspace();
});
afterAll(() => world.close());

const connect = (email: string, body: Record<string, unknown>, key = ws.fullKey) =>
  call(CONNECT, "PUT", `/mailboxes/by-email/${encodeURIComponent(email)}`, {
    key,
    params: { email } /* Next.js hands route handlers decoded params */,
    body,
  });

describe("PUT /mailboxes/by-email/<email>", () => {
  it("refuses a wrong app password with the server's reason and saves nothing", async () => {
    const r = await connect("ann@acme.test", { appPassword: "wrong" });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("Username and Password not accepted");
    expect(r.body.smtpResponseCode).toBe(535);
    expect(r.body.details.fieldErrors.appPassword[0]).toContain("535");
    const list = await call(LIST, "GET", "/mailboxes", { key: ws.readKey });
    expect(list.body).toEqual([]);
  });

  it("creates with 201 (spaces in the app password ignored), replaces with 200, and is safe to repeat", async () => {
    const spaced = PASSWORD.replace(/(.{4})/g, "$1 ").trim();
    const tag1 = (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "Pool A" } })).body.id;
    const tag2 = (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "Pool B" } })).body.id;
    const a = await connect("Ann@ACME.test", { appPassword: spaced, senderName: "Ann Lee", tagIds: [tag1] });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      created: true,
      email: "Ann@acme.test",
      emailAddress: "Ann@acme.test",
      senderName: "Ann Lee",
      smtpHost: "127.0.0.1",
      provider: "CUSTOM",
      dailySendCap: 20,
      warmupStatus: "OFF",
    });
    expect(JSON.stringify(a.body)).not.toContain(PASSWORD);
    expect(Object.keys(a.body).some((k) => /password/i.test(k))).toBe(false);
    const b = await connect("ann@acme.test", { appPassword: PASSWORD, tagIds: [tag2] });
    expect(b.status).toBe(200);
    expect(b.body.created).toBe(false);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.senderName).toBe("Ann Lee"); // not sent: kept
    expect(b.body.tags.map((t: any) => t.name)).toEqual(["Pool A", "Pool B"]); // added, never removed
    const list = await call(LIST, "GET", "/mailboxes", { key: ws.readKey });
    expect(list.body).toHaveLength(1);
  });

  it("stores passwords encrypted (AES-256-GCM), never in plain text", async () => {
    const [row] = await getDb().select().from(mailboxes).where(eq(mailboxes.workspaceId, ws.workspaceId));
    expect(row.smtpPasswordEnc.startsWith("v1:")).toBe(true);
    expect(row.smtpPasswordEnc).not.toContain(PASSWORD);
    expect(Buffer.from(row.smtpPasswordEnc.slice(3), "base64").toString("latin1")).not.toContain(PASSWORD);
  });

  it("finds a custom domain's provider from its MX records, and answers 502 when it cannot be reached", async () => {
    const r = await connect("joe@gmail-hosted.test", { appPassword: "x" });
    // MX says Google; the Google SMTP server cannot be reached from the test machine.
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("UPSTREAM_ERROR");
    expect(r.body.error).toContain("Could not reach the SMTP server");
    const none = await connect("joe@nomx.test", { appPassword: "x" });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("BAD_REQUEST");
    expect(none.body.error).toContain("bulk-import");
    expect((await call(LIST, "GET", "/mailboxes?email=joe@gmail-hosted.test", { key: ws.readKey })).body).toEqual([]);
  });

  it("answers 502 when the provider's server is down, saving nothing", async () => {
    const r = await connect("x@down.test", { appPassword: "pw" });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("UPSTREAM_ERROR");
    expect((await call(LIST, "GET", "/mailboxes?email=x@down.test", { key: ws.readKey })).body).toEqual([]);
  });
});

describe("GET /mailboxes", () => {
  it("is a plain array with X-Total-Count, X-Page and X-Limit, filtered by email case-insensitively", async () => {
    await connect("bob@acme.test", { appPassword: PASSWORD });
    const all = await call(LIST, "GET", "/mailboxes", { key: ws.readKey });
    expect(all.body.map((m: any) => m.email)).toEqual(["Ann@acme.test", "bob@acme.test"]);
    expect([all.headers.get("X-Total-Count"), all.headers.get("X-Page"), all.headers.get("X-Limit")]).toEqual(["2", "1", "5000"]);
    const one = await call(LIST, "GET", "/mailboxes?email=BOB@acme.TEST", { key: ws.readKey });
    expect(one.body.map((m: any) => m.email)).toEqual(["bob@acme.test"]);
    const single = await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: one.body[0].id } });
    expect(single.body).toEqual(one.body[0]);
    const page2 = await call(LIST, "GET", "/mailboxes?page=2&limit=1", { key: ws.readKey });
    expect(page2.body.map((m: any) => m.email)).toEqual(["bob@acme.test"]);
    const other = await makeWorkspace();
    expect((await call(GET_ONE, "GET", "", { key: other.readKey, params: { id: one.body[0].id } })).status).toBe(404);
  });
});

async function mailboxId(email: string) {
  return (await call(LIST, "GET", `/mailboxes?email=${email}`, { key: ws.readKey })).body[0].id as string;
}

describe("PATCH /mailboxes/<id>", () => {
  it("limits dailySendCap to 20 and changes only the sent fields", async () => {
    const id = await mailboxId("bob@acme.test");
    const over = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { dailySendCap: 21 } });
    expect(over.status).toBe(400);
    expect(over.body.details.fieldErrors.dailySendCap[0]).toContain("20");
    const ok = await call(PATCH, "PATCH", "", {
      key: ws.fullKey,
      params: { id },
      body: { dailySendCap: 15, signatureHtml: "<p>Bob</p>", warmupGroup: "eu" },
    });
    expect(ok.body).toMatchObject({ dailySendCap: 15, signatureHtml: "<p>Bob</p>", warmupGroup: "eu", senderName: null });
  });

  it("checks new credentials with a real login before saving them", async () => {
    const id = await mailboxId("bob@acme.test");
    const bad = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { smtpPassword: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fieldErrors.smtpPassword[0]).toContain("535");
    world.smtp.setPassword("bob@acme.test", "new-password-1");
    world.imap.setPassword("bob@acme.test", "new-password-1");
    const good = await call(PATCH, "PATCH", "", {
      key: ws.fullKey,
      params: { id },
      body: { smtpPassword: "new-password-1", imapPassword: "new-password-1" },
    });
    expect(good.status).toBe(200);
  });

  it("refuses SMTP/IMAP credentials on an OAuth-connected mailbox", async () => {
    const id = await mailboxId("bob@acme.test");
    await getDb().update(mailboxes).set({ authType: "OAUTH" }).where(eq(mailboxes.id, id));
    const r = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { smtpHost: "smtp.example.com", senderName: "B" } });
    expect(r.status).toBe(400);
    expect(r.body.details.fieldErrors.smtpHost[0]).toContain("OAuth");
    expect((await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { senderName: "Bobby" } })).body.senderName).toBe(
      "Bobby",
    );
    await getDb().update(mailboxes).set({ authType: "PASSWORD" }).where(eq(mailboxes.id, id));
  });
});

describe("bulk import and bulk daily cap", () => {
  it("verifies each mailbox, reports failures per item with the SMTP code, and defaults usernames and the IMAP password", async () => {
    const base = {
      smtpHost: world.smtp.host,
      smtpPort: world.smtp.port,
      smtpSecurity: "NONE",
      imapHost: world.imap.host,
      imapPort: world.imap.port,
      imapSecurity: "NONE",
    };
    const r = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
      key: ws.fullKey,
      body: {
        mailboxes: [
          { ...base, email: "cat@acme.test", smtpPassword: PASSWORD, dailySendCap: 40, senderName: "Cat" },
          { ...base, email: "ann@acme.test", smtpPassword: "wrong" },
          { ...base, email: "not an email", smtpPassword: "x" },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(1);
    expect(r.body.updated).toBe(0);
    expect(r.body.mailboxes.map((m: any) => [m.email, m.dailySendCap, m.smtpUsername, m.imapUsername])).toEqual([
      ["cat@acme.test", 40, "cat@acme.test", "cat@acme.test"],
    ]);
    expect(r.body.failed).toEqual([
      expect.objectContaining({ email: "ann@acme.test", smtpResponseCode: 535, error: expect.stringContaining("not accepted") }),
      expect.objectContaining({ email: "not an email" }),
    ]);
  });

  it("sets one cap on many mailboxes, at most 20", async () => {
    const ids = (await call(LIST, "GET", "/mailboxes", { key: ws.readKey })).body.map((m: any) => m.id);
    const over = await call(BULK_CAP, "PATCH", "/mailboxes/bulk-daily-cap", {
      key: ws.fullKey,
      body: { mailboxIds: ids, dailySendCap: 25 },
    });
    expect(over.status).toBe(400);
    const r = await call(BULK_CAP, "PATCH", "/mailboxes/bulk-daily-cap", {
      key: ws.fullKey,
      body: { mailboxIds: [...ids, "mbx_nope"], dailySendCap: 12 },
    });
    expect(r.body).toEqual({ updated: ids.length, notFound: ["mbx_nope"] });
    const list = await call(LIST, "GET", "/mailboxes", { key: ws.readKey });
    expect(list.body.every((m: any) => m.dailySendCap === 12)).toBe(true);
  });
});

describe("test send", () => {
  it("sends a real email through the mailbox's SMTP server", async () => {
    const id = await mailboxId("cat@acme.test");
    const before = world.smtp.received.length;
    const r = await call(TEST_SEND, "POST", "", {
      key: ws.fullKey,
      params: { id },
      body: { to: "someone@elsewhere.test", subject: "Check" },
    });
    expect(r.status).toBe(200);
    expect(r.body.sent).toBe(true);
    const got = world.smtp.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].to).toEqual(["someone@elsewhere.test"]);
    expect(got[0].user).toBe("cat@acme.test");
    expect(got[0].parsed.from?.value[0]).toMatchObject({ name: "Cat", address: "cat@acme.test" });
    expect(got[0].parsed.subject).toBe("Check");
  });

  it("answers a refusal with 502, the server's reply in error and its code in smtpResponseCode", async () => {
    const id = await mailboxId("cat@acme.test");
    const r = await call(TEST_SEND, "POST", "", { key: ws.fullKey, params: { id }, body: { to: "gone@elsewhere.test" } });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("UPSTREAM_ERROR");
    expect(r.body.smtpResponseCode).toBe(550);
    expect(r.body.error).toContain("User unknown");
  });

  it("has its own tighter rate limit", async () => {
    const id = await mailboxId("cat@acme.test");
    const own = await makeWorkspace();
    // The same mailbox id from another workspace is a 404, but still counts; use our key for the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await call(TEST_SEND, "POST", "", { key: own.fullKey, params: { id }, body: { to: "a@elsewhere.test" } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("tags and delete", () => {
  it("attaches and detaches tags", async () => {
    const id = await mailboxId("cat@acme.test");
    const a = await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id }, body: { name: "Warm" } });
    expect(a.body.attached).toBe(true);
    const d = await call(DETACH, "DELETE", "", { key: ws.fullKey, params: { id, tagId: a.body.tag.id } });
    expect(d.body.removed).toBe(true);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).body.tags).toEqual([]);
  });

  it("refuses to delete a mailbox with send history (409) and deletes one without", async () => {
    const id = await mailboxId("cat@acme.test");
    await getDb().insert(emails).values({
      id: "eml_1",
      workspaceId: ws.workspaceId,
      mailboxId: id,
      leadEmail: "l@x.test",
      messageId: "<1@acme.test>",
      subject: "Hi",
      status: "SENT",
    });
    const r = await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { id } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.error).toContain("sent 1 email");
    const bob = await mailboxId("bob@acme.test");
    expect((await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { id: bob } })).body).toEqual({ deleted: true, id: bob });
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: bob } })).status).toBe(404);
  });

  it("creates a sending domain for every mailbox domain", async () => {
    const d = await call(LIST_DOMAINS, "GET", "/domains", { key: ws.readKey });
    expect(d.body.map((x: any) => [x.domain, x.mailboxes])).toEqual([["acme.test", 2]]);
    expect(d.headers.get("X-Limit")).toBe("2000");
  });
});
