import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { consent, type OAuthWorld, startOAuthWorld } from "@/test/oauth-setup";
import { GET as AUDIT } from "./route";

const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
const ANN = { email: "ann@goog.test", sub: "google-ann" };
let world: OAuthWorld;
let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  useClock(clock);
  world = await startOAuthWorld({ now: () => clock.now(), google: "goog.test", microsoft: "ms.test" });
  ws = await makeWorkspace();
  cookie = await sessionCookie(ws.userId);
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

const entries = async (action: string) =>
  (await call(AUDIT, "GET", `/account/audit-log?action=${action}`, { cookie })).body.entries as Record<string, any>[];

describe("the audit log of an OAuth connect", () => {
  it("records the consent's mailbox as connected, and a second consent of the address as a credentials change", async () => {
    world.google.consentAs(ANN);
    const first = await consent("google", { cookie });
    expect(first.callback?.status).toBe(201);
    const [connected] = await entries("mailbox.connected");
    expect(connected).toMatchObject({
      actor: { type: "user", id: ws.userId },
      target: { type: "mailbox", id: first.callback?.body.id, label: "ann@goog.test" },
      detail: { via: "oauth", authType: "OAUTH", provider: "GOOGLE" },
    });
    const again = await consent("google", { cookie });
    expect(again.callback?.status).toBe(200);
    const [changed] = await entries("mailbox.credentials_changed");
    expect(changed).toMatchObject({ target: { label: "ann@goog.test" }, detail: { via: "oauth", changed: ["oauthGrant"] } });
    expect(await entries("mailbox.connected")).toHaveLength(1);
  });
});
