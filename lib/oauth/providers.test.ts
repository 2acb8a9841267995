import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { oauthHosts } from "../mailboxes/oauth-connect";
import { OAuthNotConfiguredError, oauthApp, oauthStatus } from "./providers";

const VARS = [
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_AUTH_URL",
  "GOOGLE_TOKEN_URL",
  "GOOGLE_USERINFO_URL",
  "MICROSOFT_CLIENT_ID",
  "MICROSOFT_CLIENT_SECRET",
  "MICROSOFT_TENANT",
  "MICROSOFT_AUTH_URL",
  "MICROSOFT_TOKEN_URL",
  "MAIL_PROVIDERS_FILE",
  "APP_URL",
];
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
  for (const k of VARS) delete process.env[k];
  process.env.APP_URL = "https://outreach.example.com";
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("OAuth provider configuration", () => {
  it("Microsoft is multi-tenant by default (common), one tenant when MICROSOFT_TENANT names it", () => {
    process.env.MICROSOFT_CLIENT_ID = "m-id";
    process.env.MICROSOFT_CLIENT_SECRET = "m-secret";
    const common = oauthApp("MICROSOFT");
    expect(common.tenant).toBe("common");
    expect(common.authUrl).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/authorize");
    expect(common.tokenUrl).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/token");
    expect(common.redirectUri).toBe("https://outreach.example.com/api/oauth/microsoft/callback");
    expect(common.scopes).toEqual(
      expect.arrayContaining([
        "offline_access",
        "https://outlook.office.com/IMAP.AccessAsUser.All",
        "https://outlook.office.com/SMTP.Send",
      ]),
    );

    process.env.MICROSOFT_TENANT = "contoso.onmicrosoft.com";
    expect(oauthApp("MICROSOFT").authUrl).toBe("https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize");
    // A blank value is unset: multi-tenant again.
    process.env.MICROSOFT_TENANT = "  ";
    expect(oauthApp("MICROSOFT").tenant).toBe("common");
  });

  it("Google uses its own endpoints, asks for offline access, and its mail scope", () => {
    process.env.GOOGLE_CLIENT_ID = "g-id";
    process.env.GOOGLE_CLIENT_SECRET = "g-secret";
    const g = oauthApp("GOOGLE");
    expect([g.authUrl, g.tokenUrl]).toEqual(["https://accounts.google.com/o/oauth2/v2/auth", "https://oauth2.googleapis.com/token"]);
    expect(g.authParams).toMatchObject({ access_type: "offline", prompt: "consent" });
    expect(g.scopes).toContain("https://mail.google.com/");
  });

  it("an unconfigured provider names the variables to set (MICROSOFT_TENANT is optional)", () => {
    process.env.GOOGLE_CLIENT_ID = "g-id";
    expect(() => oauthApp("GOOGLE")).toThrow(OAuthNotConfiguredError);
    expect(() => oauthApp("GOOGLE")).toThrow(/set GOOGLE_CLIENT_SECRET \(see docs\/oauth\.md/);
    expect(() => oauthApp("MICROSOFT")).toThrow(/set MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET/);
    expect(oauthStatus().map((s) => [s.provider, s.configured, s.missing])).toEqual([
      ["GOOGLE", false, ["GOOGLE_CLIENT_SECRET"]],
      ["MICROSOFT", false, ["MICROSOFT_CLIENT_ID", "MICROSOFT_CLIENT_SECRET"]],
    ]);
  });

  it("presets the provider's SMTP and IMAP hosts for a connected address", () => {
    expect(oauthHosts("GOOGLE", "ann@company.com")).toMatchObject({ smtpHost: "smtp.gmail.com", imapHost: "imap.gmail.com" });
    expect(oauthHosts("MICROSOFT", "mo@contoso.com")).toMatchObject({ smtpHost: "smtp.office365.com", imapHost: "outlook.office365.com" });
  });
});
