import { NextResponse, type NextRequest } from "next/server";

/**
 * API paths whose percent-encoding is broken (`/api/v1/leads/%`, `%zz`): Next.js cannot decode them
 * and would answer a plain-text 500, so they are refused here with a 400 in the 2.1 error shape.
 */
export function proxy(req: NextRequest): Response {
  try {
    decodeURIComponent(req.nextUrl.pathname);
  } catch {
    return NextResponse.json(
      {
        error: `The path ${req.nextUrl.pathname} has a malformed percent-encoding (a % must be followed by two hex digits; send %25 for a literal %)`,
        code: "BAD_REQUEST",
      },
      { status: 400 },
    );
  }
  return NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
