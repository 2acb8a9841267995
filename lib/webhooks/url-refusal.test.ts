import { beforeAll, describe, expect, it } from "vitest";
import { POST as CREATE } from "@/app/api/v1/webhooks/route";
import { PATCH } from "@/app/api/v1/webhooks/[id]/route";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("a webhook URL the outbound guard refuses", () => {
  it("create: 400 VALIDATION_ERROR on url, saying why (the private address) and naming OUTBOUND_ALLOW_HOSTS", async () => {
    const r = await call(CREATE, "POST", "/webhooks", {
      key: ws.fullKey,
      body: { url: "http://10.0.0.1:8080/hook", events: ["email.sent"] },
    });
    expect([r.status, r.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const [msg] = r.body.details.fieldErrors.url;
    expect(msg).toMatch(/^The URL points at a private or reserved address \(10\.0\.0\.1 is a private address, not a public one\)\./);
    expect(msg).toContain("add 10.0.0.1 to OUTBOUND_ALLOW_HOSTS");
    expect(r.body.error).toBe(`url: ${msg}`);
  });

  it("update: the same refusal for a new URL, and the stored URL stays", async () => {
    const ok = await call(CREATE, "POST", "/webhooks", {
      key: ws.fullKey,
      body: { url: "https://93.184.216.34/hook", events: ["email.sent"] },
    });
    expect(ok.status).toBe(201);
    const params = { id: ok.body.id };
    const r = await call(PATCH, "PATCH", "", { key: ws.fullKey, params, body: { url: "http://127.0.0.1:9000/in" } });
    expect([r.status, r.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.body.details.fieldErrors.url[0]).toContain("127.0.0.1 is a loopback address");
    expect(r.body.details.fieldErrors.url[0]).toContain("OUTBOUND_ALLOW_HOSTS");
    const again = await call(PATCH, "PATCH", "", { key: ws.fullKey, params, body: { retryAttempts: 4 } });
    expect(again.body.url).toBe("https://93.184.216.34/hook");
  });
});
