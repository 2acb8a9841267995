import { api } from "@/lib/api/handler";
import { validationErrorFromZod } from "@/lib/api/errors";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { readBodyBytes } from "@/lib/body";
import { blacklistCheckBody, startBlacklistCheck } from "@/lib/deliverability/blacklist";
import { BadRequestError } from "@/lib/errors";

// The contract's body schema documents the route (OpenAPI); it is applied here, after an empty body becomes {}.
const { body: _documented, ...contract } = deliverabilityRoutes.blacklistStart;

/** The body, where no body at all means `{}` (check every sending domain); the handler's body step requires one. */
async function optionalBody(req: Request) {
  const text = Buffer.from(await readBodyBytes(req, 256 * 1024)).toString("utf8");
  let json: unknown = {};
  try {
    if (text.trim()) json = JSON.parse(text);
  } catch (e) {
    throw new BadRequestError(`Malformed JSON: ${(e as Error).message}`);
  }
  const r = blacklistCheckBody.safeParse(json);
  if (!r.success) throw validationErrorFromZod(r.error, "body");
  return r.data;
}

export const POST = api(contract, async ({ ctx, req }) => startBlacklistCheck(ctx, await optionalBody(req)));
