import { readFileSync } from "node:fs";
import { jobsEnv } from "../env";

export type Security = "SSL" | "STARTTLS" | "NONE";

/** Where and how a mail server (SMTP or IMAP) is reached and logged in to. */
export interface ServerLogin {
  host: string;
  port: number;
  security: Security;
  username: string;
  password: string;
  /** An OAuth mailbox's bearer token: logs in with XOAUTH2 instead of the password. */
  accessToken?: string;
}
export type ProviderId = "GOOGLE" | "MICROSOFT" | "YAHOO" | "ZOHO" | "ICLOUD" | "FASTMAIL" | "CUSTOM";
/** The provider class used for ESP matching: the lead `espClass` values. */
export type EspClass = "GOOGLE" | "MICROSOFT" | "YAHOO" | "ZOHO" | "OTHER" | "UNKNOWN";

export interface ServerSettings {
  smtpHost: string;
  smtpPort: number;
  smtpSecurity: Security;
  imapHost: string;
  imapPort: number;
  imapSecurity: Security;
}

export interface Provider extends ServerSettings {
  id: ProviderId;
  name: string;
}

/** Hosted-webmail presets (app-password logins). */
export const PROVIDERS: Record<Exclude<ProviderId, "CUSTOM">, Provider> = {
  GOOGLE: {
    id: "GOOGLE",
    name: "Google Workspace / Gmail",
    smtpHost: "smtp.gmail.com",
    smtpPort: 465,
    smtpSecurity: "SSL",
    imapHost: "imap.gmail.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
  MICROSOFT: {
    id: "MICROSOFT",
    name: "Microsoft 365 / Outlook",
    smtpHost: "smtp.office365.com",
    smtpPort: 587,
    smtpSecurity: "STARTTLS",
    imapHost: "outlook.office365.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
  YAHOO: {
    id: "YAHOO",
    name: "Yahoo Mail",
    smtpHost: "smtp.mail.yahoo.com",
    smtpPort: 465,
    smtpSecurity: "SSL",
    imapHost: "imap.mail.yahoo.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
  ZOHO: {
    id: "ZOHO",
    name: "Zoho Mail",
    smtpHost: "smtp.zoho.com",
    smtpPort: 465,
    smtpSecurity: "SSL",
    imapHost: "imap.zoho.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
  ICLOUD: {
    id: "ICLOUD",
    name: "iCloud Mail",
    smtpHost: "smtp.mail.me.com",
    smtpPort: 587,
    smtpSecurity: "STARTTLS",
    imapHost: "imap.mail.me.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
  FASTMAIL: {
    id: "FASTMAIL",
    name: "Fastmail",
    smtpHost: "smtp.fastmail.com",
    smtpPort: 465,
    smtpSecurity: "SSL",
    imapHost: "imap.fastmail.com",
    imapPort: 993,
    imapSecurity: "SSL",
  },
};

/** Consumer address domains whose provider is known without a DNS look-up. */
const ADDRESS_DOMAINS: Record<string, ProviderId> = {
  "gmail.com": "GOOGLE",
  "googlemail.com": "GOOGLE",
  "outlook.com": "MICROSOFT",
  "hotmail.com": "MICROSOFT",
  "live.com": "MICROSOFT",
  "msn.com": "MICROSOFT",
  "yahoo.com": "YAHOO",
  "ymail.com": "YAHOO",
  "rocketmail.com": "YAHOO",
  "zoho.com": "ZOHO",
  "zohomail.com": "ZOHO",
  "icloud.com": "ICLOUD",
  "me.com": "ICLOUD",
  "mac.com": "ICLOUD",
  "fastmail.com": "FASTMAIL",
  "fastmail.fm": "FASTMAIL",
};

/** MX host suffixes of each provider, for custom domains. */
const MX_SUFFIXES: [string, ProviderId][] = [
  ["google.com", "GOOGLE"],
  ["googlemail.com", "GOOGLE"],
  ["outlook.com", "MICROSOFT"],
  ["office365.us", "MICROSOFT"],
  ["yahoodns.net", "YAHOO"],
  ["zoho.com", "ZOHO"],
  ["zoho.eu", "ZOHO"],
  ["zoho.in", "ZOHO"],
  ["zohomail.com", "ZOHO"],
  ["icloud.com", "ICLOUD"],
  ["messagingengine.com", "FASTMAIL"],
];

export function providerFromAddressDomain(domain: string): ProviderId | undefined {
  return ADDRESS_DOMAINS[domain.toLowerCase()];
}

export function providerFromMx(exchanges: string[]): ProviderId | undefined {
  for (const mx of exchanges) {
    const host = mx.toLowerCase().replace(/\.$/, "");
    const hit = MX_SUFFIXES.find(([suffix]) => host === suffix || host.endsWith("." + suffix));
    if (hit) return hit[1];
  }
  return undefined;
}

export function espClassOf(provider: ProviderId | undefined): EspClass {
  if (!provider) return "UNKNOWN";
  if (provider === "GOOGLE" || provider === "MICROSOFT" || provider === "YAHOO" || provider === "ZOHO") return provider;
  return "OTHER";
}

let overrides: { file: string; map: Record<string, ServerSettings> } | undefined;

/** MAIL_PROVIDERS_FILE: `{ "<address domain>": { smtpHost, smtpPort, smtpSecurity, imapHost, imapPort, imapSecurity } }`. */
export function providerOverride(domain: string): ServerSettings | undefined {
  const file = jobsEnv.mailProvidersFile;
  if (!file) return undefined;
  if (overrides?.file !== file) overrides = { file, map: JSON.parse(readFileSync(file, "utf8")) };
  return overrides.map[domain.toLowerCase()];
}
