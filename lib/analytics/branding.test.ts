import { describe, expect, it } from "vitest";
import { GET as BRANDED } from "@/app/api/v1/reports/branded/route";
import { GET, PUT } from "@/app/api/v1/settings/branding/route";
import { addMember, call, makeWorkspace, sessionCookie } from "@/test/helpers";

const FULL = {
  name: "Northwind Agency",
  logoUrl: "https://cdn.northwind.example/logo.svg",
  primaryColor: "#0f766e",
  accentColor: "#f59e0b",
  footerText: "Prepared by Northwind · hello@northwind.example",
};

describe("report branding: every field round-trips", () => {
  it("PUT then GET returns each field as sent; the branded report carries the same branding", async () => {
    const ws = await makeWorkspace();
    const cookie = await sessionCookie(ws.userId);
    const put = await call(PUT, "PUT", "/settings/branding", { cookie, body: FULL });
    expect([put.status, put.body.branding]).toEqual([200, FULL]);
    expect((await call(GET, "GET", "/settings/branding", { key: ws.readKey })).body.branding).toEqual(FULL);
    expect((await call(BRANDED, "GET", "/reports/branded?days=7", { key: ws.readKey })).body.branding).toEqual(FULL);
  });

  it("only sent fields change; null clears one (the name falls back to the workspace's), an empty footer is none", async () => {
    const ws = await makeWorkspace("acme-brand");
    const put = (body: unknown) => call(PUT, "PUT", "/settings/branding", { key: ws.fullKey, body });
    await put(FULL);
    expect((await put({ accentColor: "#112233" })).body.branding).toEqual({ ...FULL, accentColor: "#112233" });
    const cleared = (await put({ name: null, accentColor: null, footerText: "" })).body.branding;
    expect(cleared).toEqual({ ...FULL, name: "acme-brand", accentColor: null, footerText: null });
  });

  it("checks each field: the colours are #rrggbb, the footer at most 500 characters, no unknown field", async () => {
    const ws = await makeWorkspace();
    const put = (body: unknown) => call(PUT, "PUT", "/settings/branding", { key: ws.fullKey, body });
    const bad = await put({ accentColor: "orange", footerText: "x".repeat(501) });
    expect([bad.status, bad.body.code, Object.keys(bad.body.details.fieldErrors).sort()]).toEqual([
      400,
      "VALIDATION_ERROR",
      ["accentColor", "footerText"],
    ]);
    expect(bad.body.details.fieldErrors.accentColor[0]).toContain("#1a2b3c");
    expect((await put({ watermark: "x" })).status).toBe(400);
    // Nothing of a refused body is kept.
    expect((await call(GET, "GET", "/settings/branding", { key: ws.readKey })).body.branding.accentColor).toBeNull();
  });

  it("owners and admins edit; a member reads but may not change it; a client reads the branded report only", async () => {
    const ws = await makeWorkspace();
    const admin = await addMember(ws.workspaceId, "admin");
    const member = await addMember(ws.workspaceId, "member");
    const client = await addMember(ws.workspaceId, "client");
    expect((await call(PUT, "PUT", "/settings/branding", { key: admin.key, body: { accentColor: "#abcdef" } })).status).toBe(200);
    expect((await call(PUT, "PUT", "/settings/branding", { key: member.key, body: { accentColor: "#000000" } })).status).toBe(403);
    expect((await call(GET, "GET", "/settings/branding", { key: member.key })).body.branding.accentColor).toBe("#abcdef");
    expect((await call(GET, "GET", "/settings/branding", { key: client.key })).status).toBe(403);
    expect((await call(BRANDED, "GET", "/reports/branded", { key: client.key })).body.branding.accentColor).toBe("#abcdef");
  });
});
