import { BadRequestError, PayloadTooLargeError } from "./errors";

export const DEFAULT_JSON_LIMIT = 5 * 1024 * 1024;

/** Reads the body, counting bytes as they stream, and stops at `limit` (413). */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(`Body is ${declared} bytes; the limit is ${limit}`);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(`Body is larger than the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readJsonBody(req: Request, limit = DEFAULT_JSON_LIMIT): Promise<unknown> {
  return (await readJson(req, limit)).value;
}

/**
 * The parsed body, and whether it may hold a NUL character: JSON can only write one as the escape
 * `\u0000` (a raw control character is malformed JSON), so a body whose text has no such escape
 * holds none — the caller can skip walking the parsed value for one.
 */
export async function readJson(
  req: Request,
  limit = DEFAULT_JSON_LIMIT,
  /** What an empty body stands for; without it an empty body is refused. */
  empty?: unknown,
): Promise<{ value: unknown; mayHoldNul: boolean }> {
  const bytes = await readBodyBytes(req, limit);
  const text = Buffer.isBuffer(bytes) ? bytes.toString("utf8") : Buffer.from(bytes).toString("utf8");
  if (text.trim() === "") {
    if (empty !== undefined) return { value: empty, mayHoldNul: false };
    throw new BadRequestError("A JSON body is required");
  }
  try {
    return { value: JSON.parse(text), mayHoldNul: text.includes("\\u0000") };
  } catch (e) {
    throw new BadRequestError(`Malformed JSON: ${(e as Error).message}`);
  }
}
