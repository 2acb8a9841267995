import { errorResponse } from "@/lib/api/errors";
import { AppError } from "@/lib/errors";

/**
 * Any path under /api/v1 that no route matches: 404 `NOT_FOUND` in the API's error shape (not the
 * dashboard's HTML page), whatever the method.
 */
function notFound(req: Request): Response {
  const path = new URL(req.url).pathname;
  return errorResponse(new AppError("NOT_FOUND", `No API route at ${req.method} ${path} — see /docs/api for the routes`));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;
