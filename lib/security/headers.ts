/**
 * The security headers every answer carries (proxy.ts sets them on pages and API answers, the
 * production server's tracking fast path on the open pixel and the click redirect).
 *
 * Pages get a Content-Security-Policy whose scripts must carry the request's nonce: Next.js reads the
 * nonce from the policy on the request and puts it on its own scripts, and `'strict-dynamic'` lets
 * those scripts load the page's chunks. No inline script without the nonce runs, and nothing may
 * frame the dashboard. Styles may be inline (React's style attributes, Recharts, Scalar's injected
 * styles, and the cleaned email HTML shown in a sandboxed srcdoc frame, which inherits this policy).
 * Images may come from anywhere over http(s) because the inbox shows a message's remote images once
 * the user asks for them; the frame's own policy keeps them blocked until then.
 *
 * API and other machine answers (JSON, the pixel, redirects, downloads) get `default-src 'none'`:
 * nothing they return may run or load anything, even when opened directly in a browser.
 */

export type PolicyKind = "page" | "api";

export interface SecurityHeaderOptions {
  kind: PolicyKind;
  /** The request's nonce: required for a page policy. */
  nonce?: string;
  /** APP_URL as configured (undefined when unset): HSTS is sent only when it is https. */
  appUrl?: string;
  /** `next dev`: React's development build evaluates code (error overlays, server stacks) and hot reload uses a websocket. */
  dev?: boolean;
}

/**
 * Browser features the dashboard never uses, turned off for the page and anything it embeds. Only names
 * Chromium knows: an unknown one is reported on every page load as a header error in the console.
 */
const DISABLED_FEATURES = [
  "accelerometer",
  "autoplay",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "serial",
  "usb",
  "xr-spatial-tracking",
  "browsing-topics",
];

export const PERMISSIONS_POLICY = DISABLED_FEATURES.map((f) => `${f}=()`).join(", ");

/** The strict policy of answers that are not pages. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** A nonce as CSP accepts it (base64), 128 random bits. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

function isHttps(appUrl: string | undefined): boolean {
  if (!appUrl) return false;
  try {
    return new URL(appUrl).protocol === "https:";
  } catch {
    return false;
  }
}

/** The page policy for one request's nonce. */
export function pagePolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src 'self'${opts.dev ? " ws: wss:" : ""}`,
    // The inbox and the sequence preview show email HTML in sandboxed srcdoc frames; nothing else is framed.
    "frame-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers of one answer (header names as browsers document them). */
export function securityHeaders(opts: SecurityHeaderOptions): Record<string, string> {
  const https = isHttps(opts.appUrl);
  let csp = API_CSP;
  if (opts.kind === "page") {
    if (!opts.nonce) throw new Error("A page policy needs the request's nonce");
    csp = pagePolicy(opts.nonce, { dev: opts.dev });
  }
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
  };
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}

/**
 * Which policy a path gets: the API (`/api/…`) and the tracking routes (`/t/…`: a pixel and a redirect)
 * answer machines; everything else is a page.
 */
export function policyKindOf(pathname: string): PolicyKind {
  return pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/t/") ? "api" : "page";
}
