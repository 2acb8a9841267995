import { describe, expect, it } from "vitest";
import { API_CSP, newNonce, policyKindOf, securityHeaders } from "./headers";

const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );

describe("security headers", () => {
  it("puts the request's nonce in a page policy's script-src, with strict-dynamic and no unsafe-inline or unsafe-eval", () => {
    const h = securityHeaders({ kind: "page", nonce: "abc123==" });
    const d = directives(h["Content-Security-Policy"]);
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'self'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    // The email frames: inline styles and, once the user asks for them, remote images.
    expect(d.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(d.get("img-src")).toEqual(expect.arrayContaining(["data:", "https:"]));
    expect(h["Content-Security-Policy"]).not.toContain("unsafe-eval");
  });

  it("allows eval only in development (React's development build needs it)", () => {
    const d = directives(securityHeaders({ kind: "page", nonce: "n", dev: true })["Content-Security-Policy"]);
    expect(d.get("script-src")).toContain("'unsafe-eval'");
  });

  it("refuses to build a page policy without a nonce", () => {
    expect(() => securityHeaders({ kind: "page" })).toThrow(/nonce/);
  });

  it("gives API answers the strict policy, with frame-ancestors none", () => {
    const h = securityHeaders({ kind: "api" });
    expect(h["Content-Security-Policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(h["Content-Security-Policy"]).toBe(API_CSP);
  });

  it("sends the other headers on every kind of answer", () => {
    for (const h of [securityHeaders({ kind: "api" }), securityHeaders({ kind: "page", nonce: "n" })]) {
      expect(h["X-Frame-Options"]).toBe("DENY");
      expect(h["X-Content-Type-Options"]).toBe("nosniff");
      expect(h["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
      for (const f of ["camera", "microphone", "geolocation", "payment"]) expect(h["Permissions-Policy"]).toContain(`${f}=()`);
    }
  });

  it("sends HSTS only when APP_URL is https", () => {
    const https = securityHeaders({ kind: "page", nonce: "n", appUrl: "https://mail.example.com" });
    expect(https["Strict-Transport-Security"]).toBe("max-age=31536000");
    // Not upgrade-insecure-requests: the dashboard opened over plain http on its own port (a health check, an SSH tunnel) must still load.
    expect(https["Content-Security-Policy"]).not.toContain("upgrade-insecure-requests");
    expect(securityHeaders({ kind: "api", appUrl: "https://mail.example.com/" })["Strict-Transport-Security"]).toBe("max-age=31536000");
    for (const appUrl of [undefined, "http://localhost:3000", "not a url"]) {
      const h = securityHeaders({ kind: "page", nonce: "n", appUrl });
      expect(h["Strict-Transport-Security"]).toBeUndefined();
    }
  });

  it("makes a fresh base64 nonce of 128 bits each time", () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(a);
  });

  it("gives the API and the tracking routes the API policy, everything else the page policy", () => {
    expect(policyKindOf("/api/v1/campaigns")).toBe("api");
    expect(policyKindOf("/api")).toBe("api");
    expect(policyKindOf("/t/o/abc")).toBe("api");
    expect(policyKindOf("/apiary")).toBe("page");
    expect(policyKindOf("/campaigns")).toBe("page");
    expect(policyKindOf("/u/token")).toBe("page");
    expect(policyKindOf("/")).toBe("page");
  });
});
