import type { z } from "zod";
import type { Role } from "../roles";

export type Access = "read" | "write";

export type ResponseContentType = "application/json" | "text/csv" | "application/octet-stream";

/**
 * One route's contract: used by the handler wrapper (auth, scope, validation) and by the OpenAPI
 * document, so the docs can never drift from what the route accepts.
 */
export interface RouteDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style path under /api/v1, e.g. `/leads/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** R (a read-only or full-access key) or F (full access only). */
  access: Access;
  /**
   * The least role the route needs (lib/roles.ts). Unset: a client may make the reads of the
   * client areas, a member everything else. `admin` for the owner-or-admin gates.
   */
  role?: Role;
  /**
   * `session`: dashboard-only routes (API-key management) — an API key gets 403. `public`: no
   * credential at all (accepting an invitation, password reset, confirming an email address); served
   * by `publicApi` (lib/api/public.ts), counted per IP, and never acting in a workspace by itself.
   */
  credential?: "any" | "session" | "public";
  query?: Q;
  body?: B;
  /**
   * Recognises the route's common well-formed body without running `body` (a big body's zod parse is
   * costly): true only for a body that `body` would return unchanged, which is then used as it is.
   * Anything else is parsed by `body` as usual, so errors and stripping stay zod's.
   */
  bodyCheck?: (body: unknown) => boolean;
  /** Body size limit in bytes (default 5 MB). */
  bodyLimit?: number;
  /** Every field of the body is optional: an empty request body counts as `{}` (e.g. start-warmup). */
  bodyOptional?: boolean;
  /** A tighter limit on top of the credential's (e.g. test sends): points per window. */
  extraLimit?: { name: string; points: number; durationSeconds: number };
  /**
   * The success response: status (200 by default), description and schema of what the serializer
   * returns; `contentType` for a body that is not JSON (CSV reports, file downloads).
   */
  response?: { status?: number; description: string; schema?: z.ZodType; contentType?: ResponseContentType };
  /**
   * Other success answers of the same operation (JSON), e.g. the 202 of a send that went to the
   * background: documented under their own status so the generated client types each one.
   */
  otherResponses?: { status: number; description: string; schema: z.ZodType }[];
  /** Additional error responses worth documenting. */
  errors?: number[];
}

export function defineRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: RouteDef<Q, B>,
): RouteDef<Q, B> {
  return def;
}
