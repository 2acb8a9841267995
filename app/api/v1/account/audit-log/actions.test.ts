import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { selectRows } from "@/db/bulk";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { GET as AUDIT } from "./route";
import { POST as CREATE_KEY } from "../api-keys/route";
import { DELETE as REVOKE_KEY } from "../api-keys/[id]/route";
import { PUT as CONNECT } from "../../mailboxes/by-email/[email]/route";
import { POST as IMPORT } from "../../mailboxes/bulk-import/route";
import { DELETE as DELETE_MAILBOX, PATCH as PATCH_MAILBOX } from "../../mailboxes/[id]/route";
import { POST as CREATE_WEBHOOK } from "../../webhooks/route";
import { DELETE as DELETE_WEBHOOK, PATCH as PATCH_WEBHOOK } from "../../webhooks/[id]/route";
import { POST as ROTATE } from "../../webhooks/[id]/rotate-secret/route";
import { POST as CREATE_CAMPAIGN } from "../../campaigns/route";
import { DELETE as DELETE_CAMPAIGN } from "../../campaigns/[id]/route";
import { POST as CREATE_LEADS } from "../../leads/route";
import { POST as BULK_DELETE } from "../../leads/bulk-delete/route";
import { GET as LEADS_CSV } from "../../reports/leads.csv/route";
import { PUT as BRANDING } from "../../settings/branding/route";
import { PATCH as AI_SETTINGS } from "../../ai-settings/route";
import { PUT as PRESET } from "../../warmup/presets/[class]/route";

const PASSWORD = "first-app-password";
const SECOND_PASSWORD = "second-app-password";
const IMPORT_PASSWORD = "imported-password-xyz";
let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
let ownerCookie: string;
let admin: { userId: string; key: string };
let ownerEmail: string;
/** Every secret the test hands out or is handed: none may appear in any audit row. */
const secrets: string[] = [PASSWORD, SECOND_PASSWORD, IMPORT_PASSWORD];

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  world = await startMailWorld({ domain: "aud.test", users: { "sam@aud.test": PASSWORD, "sue@aud.test": SECOND_PASSWORD } });
  ws = await makeWorkspace();
  secrets.push(ws.fullKey, ws.readKey);
  ownerCookie = await sessionCookie(ws.userId);
  admin = await addMember(ws.workspaceId, "admin");
  secrets.push(admin.key);
  [{ email: ownerEmail }] = await selectRows<{ email: string }>(getDb(), sql`select email from users where id = ${ws.userId}`);
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await world.close();
});

const asOwner = (ip: string) => ({ cookie: ownerCookie, headers: { "x-forwarded-for": `${ip}, 10.0.0.1` } });
const asAdminKey = (ip: string) => ({ key: admin.key, headers: { "x-forwarded-for": ip } });

/** The workspace's log entries of one action, newest first, read through the route. */
async function entries(action: string) {
  const r = await call(AUDIT, "GET", `/account/audit-log?action=${action}`, { cookie: ownerCookie });
  expect(r.status).toBe(200);
  return r.body.entries as {
    actor: { type: string; id: string; label: string };
    target: { type: string; id: string | null; label: string } | null;
    ip: string;
    detail: Record<string, unknown>;
  }[];
}

describe("what the audit log records", () => {
  it("API keys created and revoked from a session: the user, the key's name and prefix, the IP", async () => {
    const made = await call(CREATE_KEY, "POST", "/account/api-keys", {
      ...asOwner("203.0.113.5"),
      body: { name: "Zapier", scope: "read" },
    });
    expect(made.status).toBe(201);
    secrets.push(made.body.key);
    const revoked = await call(REVOKE_KEY, "DELETE", "", { ...asOwner("203.0.113.6"), params: { id: made.body.id } });
    expect(revoked.status).toBe(200);
    await call(REVOKE_KEY, "DELETE", "", { ...asOwner("203.0.113.6"), params: { id: made.body.id } }); // again: no second row
    const [created] = await entries("api_key.created");
    expect(created).toMatchObject({
      actor: { type: "user", id: ws.userId, label: ownerEmail },
      target: { type: "api_key", id: made.body.id, label: `Zapier (${made.body.prefix}…)` },
      ip: "203.0.113.5",
      detail: { scope: "read" },
    });
    const gone = await entries("api_key.revoked");
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatchObject({ actor: { type: "user", id: ws.userId }, target: { id: made.body.id }, ip: "203.0.113.6" });
  });

  it("mailboxes connected (by email, bulk import), their credentials changed (field names) and deleted, by an API key", async () => {
    const c = await call(CONNECT, "PUT", "", {
      ...asAdminKey("198.51.100.1"),
      params: { email: "sam@aud.test" },
      body: { appPassword: PASSWORD },
    });
    expect(c.status).toBe(201);
    const id = c.body.id;
    // The same login again changes nothing: no row.
    await call(CONNECT, "PUT", "", { ...asAdminKey("198.51.100.1"), params: { email: "sam@aud.test" }, body: { appPassword: PASSWORD } });
    const [connected] = await entries("mailbox.connected");
    expect(connected).toMatchObject({
      actor: { type: "api_key", label: expect.stringContaining("ok_live_") },
      target: { type: "mailbox", id, label: "sam@aud.test" },
      ip: "198.51.100.1",
      detail: { via: "app_password", authType: "PASSWORD" },
    });
    expect(connected.actor.label).not.toBe(admin.key);

    const patched = await call(PATCH_MAILBOX, "PATCH", "", {
      ...asAdminKey("198.51.100.2"),
      params: { id },
      body: { smtpUsername: "sue@aud.test", smtpPassword: SECOND_PASSWORD, senderName: "Sam" },
    });
    expect(patched.status).toBe(200);
    await call(PATCH_MAILBOX, "PATCH", "", { ...asAdminKey("198.51.100.2"), params: { id }, body: { senderName: "Sam B" } }); // no login change
    const changed = await entries("mailbox.credentials_changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ target: { id, label: "sam@aud.test" }, ip: "198.51.100.2", detail: { via: "patch" } });
    expect(changed[0].detail.changed).toEqual(["smtpUsername", "smtpPassword"]);

    const base = {
      smtpHost: world.smtp.host,
      smtpPort: world.smtp.port,
      smtpSecurity: "NONE",
      imapHost: world.imap.host,
      imapPort: world.imap.port,
    };
    const imported = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
      ...asAdminKey("198.51.100.3"),
      body: {
        verify: false,
        mailboxes: [
          { ...base, imapSecurity: "NONE", email: "imp1@aud.test", smtpPassword: IMPORT_PASSWORD },
          { ...base, imapSecurity: "NONE", email: "imp2@aud.test", smtpPassword: IMPORT_PASSWORD },
        ],
      },
    });
    expect(imported.body.created).toBe(2);
    const all = await entries("mailbox.connected");
    expect(
      all
        .filter((e) => e.detail.via === "bulk_import")
        .map((e) => e.target?.label)
        .sort(),
    ).toEqual(["imp1@aud.test", "imp2@aud.test"]);

    const removed = await call(DELETE_MAILBOX, "DELETE", "", {
      ...asAdminKey("198.51.100.4"),
      params: { id: imported.body.mailboxes[0].id },
    });
    expect(removed.status).toBe(200);
    const [deleted] = await entries("mailbox.deleted");
    expect(deleted).toMatchObject({ actor: { type: "api_key" }, target: { type: "mailbox", label: "imp1@aud.test" }, ip: "198.51.100.4" });
  });

  it("webhooks created, updated, rotated and deleted, named by their URL's origin (a URL's path can be a secret)", async () => {
    const url = "http://127.0.0.1:9/hooks/a-secret-path";
    const w = await call(CREATE_WEBHOOK, "POST", "/webhooks", { ...asOwner("192.0.2.1"), body: { url, events: ["email.sent"] } });
    expect(w.status).toBe(201);
    secrets.push(w.body.secret);
    await call(PATCH_WEBHOOK, "PATCH", "", { ...asOwner("192.0.2.2"), params: { id: w.body.id }, body: { url: `${url}2`, active: false } });
    const rotated = await call(ROTATE, "POST", "", { ...asOwner("192.0.2.3"), params: { id: w.body.id } });
    secrets.push(rotated.body.secret);
    await call(DELETE_WEBHOOK, "DELETE", "", { ...asOwner("192.0.2.4"), params: { id: w.body.id } });
    expect((await entries("webhook.created"))[0]).toMatchObject({
      target: { type: "webhook", id: w.body.id, label: "http://127.0.0.1:9" },
      ip: "192.0.2.1",
    });
    const [updated] = await entries("webhook.updated");
    expect(updated).toMatchObject({
      target: { label: "http://127.0.0.1:9" },
      ip: "192.0.2.2",
      detail: { previousOrigin: "http://127.0.0.1:9" },
    });
    const rows = await getDb().execute(sql`select * from audit_log where action like 'webhook.%'`);
    expect(JSON.stringify(rows)).not.toContain("a-secret-path");
    expect(updated.detail.fields).toEqual(["url", "active"]);
    expect((await entries("webhook.secret_rotated"))[0]).toMatchObject({ target: { id: w.body.id }, ip: "192.0.2.3" });
    expect((await entries("webhook.deleted"))[0]).toMatchObject({ target: { id: w.body.id }, ip: "192.0.2.4" });
  });

  it("a campaign deleted, leads bulk-deleted (the count) and leads.csv downloaded (the filters)", async () => {
    const c = await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Spring push" } });
    await call(DELETE_CAMPAIGN, "DELETE", "", { ...asOwner("192.0.2.10"), params: { id: c.body.id } });
    expect((await entries("campaign.deleted"))[0]).toMatchObject({
      actor: { type: "user" },
      target: { type: "campaign", id: c.body.id, label: "Spring push" },
      ip: "192.0.2.10",
      detail: { leadsDeleted: 0 },
    });

    const made = await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: [{ email: "a@l.test" }, { email: "b@l.test" }] },
    });
    const ids = made.body.leads.map((l: { id: string }) => l.id);
    const del = await call(BULK_DELETE, "POST", "/leads/bulk-delete", {
      ...asAdminKey("192.0.2.11"),
      body: { leadIds: [...ids, "lead_missing"] },
    });
    expect(del.body.deleted).toBe(2);
    expect((await entries("leads.bulk_deleted"))[0]).toMatchObject({ ip: "192.0.2.11", detail: { count: 2, requested: 3 } });

    const csv = await call(LEADS_CSV, "GET", "/reports/leads.csv?status=ACTIVE", { ...asOwner("192.0.2.12") });
    expect(csv.status).toBe(200);
    expect((await entries("report.leads_csv"))[0]).toMatchObject({ ip: "192.0.2.12", detail: { filters: { status: "ACTIVE" }, leads: 0 } });
  });

  it("settings changed: report branding, AI settings and a warmup preset, each naming the settings", async () => {
    await call(BRANDING, "PUT", "/settings/branding", { ...asOwner("192.0.2.20"), body: { name: "Acme", primaryColor: "#112233" } });
    await call(AI_SETTINGS, "PATCH", "/ai-settings", { ...asOwner("192.0.2.21"), body: { aiDraftEnabled: false } });
    await call(PRESET, "PUT", "", { ...asOwner("192.0.2.22"), params: { class: "GOOGLE" }, body: { startingVolume: 5 } });
    const rows = await entries("settings.changed");
    expect(rows.map((r) => [r.detail.settings, r.detail.fields, r.ip])).toEqual([
      ["warmupPresets", ["startingVolume"], "192.0.2.22"],
      ["ai", ["aiDraftEnabled"], "192.0.2.21"],
      ["branding", ["name", "primaryColor"], "192.0.2.20"],
    ]);
  });

  it("no audit row holds a password, an API key or a webhook secret", async () => {
    const rows = await selectRows<{ row: string }>(getDb(), sql`select row_to_json(a)::text as row from audit_log a`);
    expect(rows.length).toBeGreaterThan(15);
    for (const { row } of rows) for (const s of secrets) expect(row).not.toContain(s);
  });
});
