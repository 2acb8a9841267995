import { createHmac, timingSafeEqual } from "node:crypto";
import { appUrl, outreachSecret } from "../env";

/**
 * Tracking and unsubscribe links carry the email id and an HMAC over what they may do, so they cannot
 * be guessed or pointed elsewhere: a click link redirects only to the URL that was in the email.
 */
function mac(purpose: string, emailId: string, extra = ""): string {
  return createHmac("sha256", outreachSecret()).update(`${purpose}|${emailId}|${extra}`).digest("base64url").slice(0, 22);
}

export function openToken(emailId: string): string {
  return `${emailId}.${mac("open", emailId)}`;
}
export function unsubscribeToken(emailId: string): string {
  return `${emailId}.${mac("unsub", emailId)}`;
}
export function clickToken(emailId: string, url: string): string {
  return `${emailId}.${mac("click", emailId, url)}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The email id a token names, when its MAC is right for that purpose (and URL, for clicks). */
export function readToken(purpose: "open" | "unsub" | "click", token: string, url = ""): string | undefined {
  const i = token.lastIndexOf(".");
  if (i <= 0) return undefined;
  const emailId = token.slice(0, i);
  return same(token.slice(i + 1), mac(purpose, emailId, url)) ? emailId : undefined;
}

/**
 * The base of a campaign's tracking links: a tracking domain with APP_URL's scheme and port (https in
 * production, so the domain needs a certificate where the traffic enters), or APP_URL itself.
 */
export function trackingBaseUrl(domain: string | null | undefined): string {
  if (!domain) return appUrl();
  const app = new URL(appUrl());
  return `${app.protocol}//${domain}${app.port ? `:${app.port}` : ""}`;
}

export function openPixelUrl(emailId: string, base = appUrl()): string {
  return `${base}/t/o/${openToken(emailId)}`;
}
export function unsubscribeUrl(emailId: string, base = appUrl()): string {
  return `${base}/u/${unsubscribeToken(emailId)}`;
}
export function clickUrl(emailId: string, url: string, base = appUrl()): string {
  return `${base}/t/c/${clickToken(emailId, url)}?url=${encodeURIComponent(url)}`;
}

/** Rewrites http(s) links of an HTML body through the click redirect at `base` (APP_URL, or the campaign's tracking domain). */
export function rewriteLinks(html: string, emailId: string, base = appUrl()): string {
  return html.replace(/(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi, (_m, pre: string, q: string, url: string) => {
    const decoded = url.replace(/&amp;/g, "&");
    return `${pre}${q}${clickUrl(emailId, decoded, base).replace(/&/g, "&amp;")}${q}`;
  });
}

export function addOpenPixel(html: string, emailId: string, base = appUrl()): string {
  const img = `<img src="${openPixelUrl(emailId, base)}" width="1" height="1" alt="" style="display:none">`;
  const i = html.search(/<\/body>/i);
  return i >= 0 ? html.slice(0, i) + img + html.slice(i) : html + img;
}
