import { NextResponse, type NextRequest } from "next/server";
import { newNonce, policyKindOf, securityHeaders } from "@/lib/security/headers";

function withSecurityHeaders(res: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/**
 * Runs before every page and API request (static build files aside):
 * - the security headers of lib/security/headers.ts on every answer. A page gets a fresh nonce: its
 *   Content-Security-Policy is also set on the request, where Next.js reads the nonce and adds it to
 *   its own scripts (the root layout reads the request headers, so every page renders per request);
 *   `x-nonce` carries it for a server component that needs it.
 * - API paths whose percent-encoding is broken (`/api/v1/leads/%`, `%zz`): Next.js cannot decode them
 *   and would answer a plain-text 500, so they are refused here with a 400 in the API's error shape.
 */
export function proxy(req: NextRequest): Response {
  const kind = policyKindOf(req.nextUrl.pathname);
  const dev = process.env.NODE_ENV === "development";
  if (kind === "api") {
    const headers = securityHeaders({ kind, appUrl: process.env.APP_URL, dev });
    try {
      decodeURIComponent(req.nextUrl.pathname);
    } catch {
      const error = `The path ${req.nextUrl.pathname} has a malformed percent-encoding (a % must be followed by two hex digits; send %25 for a literal %)`;
      return withSecurityHeaders(NextResponse.json({ error, code: "BAD_REQUEST" }, { status: 400 }), headers);
    }
    return withSecurityHeaders(NextResponse.next(), headers);
  }
  const nonce = newNonce();
  const headers = securityHeaders({ kind, nonce, appUrl: process.env.APP_URL, dev });
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
}

// Everything but the build's static files (hashed scripts, styles, fonts) and the image optimizer.
export const config = { matcher: "/((?!_next/static/|_next/image).*)" };
