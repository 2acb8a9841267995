import { z } from "zod";
import { getDb, resolveDatabaseUrl } from "@/db/client";
import { readJsonBody } from "@/lib/body";
import { clientIp } from "@/lib/api/request-credentials";
import { errorResponse, validationErrorFromZod } from "@/lib/api/errors";
import { authAttempt } from "@/lib/auth/sign-in";
import { firstRunSignup, firstRunState } from "@/lib/auth/users";
import { RateLimitedError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const setupBody = z.object({
  email: z.string().trim().min(1, "email is required").max(320),
  password: z.string().min(1, "password is required").max(200),
  workspaceName: z.string().trim().min(1, "workspace name is required").max(100),
  name: z.string().trim().max(100).optional(),
  token: z.string().min(1, "the setup token is required").max(200),
});

/** GET /api/setup — whether the instance still waits for its first user (no auth: the pages ask). */
export async function GET() {
  try {
    await resolveDatabaseUrl();
    return Response.json(await firstRunState(getDb()));
  } catch (err) {
    return errorResponse(err);
  }
}

/** POST /api/setup — the first sign-up: creates the owner and the workspace, with the printed token. */
export async function POST(req: Request) {
  try {
    await resolveDatabaseUrl();
    const rate = await authAttempt(clientIp(req));
    if (!rate.allowed) throw new RateLimitedError(`Too many attempts; try again in ${rate.retryAfter} seconds`, rate.retryAfter);
    const parsed = setupBody.safeParse(await readJsonBody(req, 16 * 1024));
    if (!parsed.success) throw validationErrorFromZod(parsed.error, "body");
    const { name, ...rest } = parsed.data;
    const result = await firstRunSignup(getDb(), { ...rest, name: name || undefined });
    return Response.json({ userId: result.userId, workspaceId: result.workspaceId }, { status: 201 });
  } catch (err) {
    return errorResponse(err);
  }
}
