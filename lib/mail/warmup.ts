/**
 * The marker our warmup puts on every message it sends (issue 6: "Warmup traffic never appears in the
 * inbox"): `X-Outreach-Warmup: <token>`. The token is the warmup's own (opaque to the reader); reply
 * ingestion skips any message that carries the header, in every folder it reads.
 */
export const WARMUP_HEADER = "X-Outreach-Warmup";

/** Whether parsed headers (mailparser's Map, lower-cased keys) or a raw header block carry the warmup marker. */
export function hasWarmupHeader(headers: Map<string, unknown> | Buffer | string | undefined | null): boolean {
  if (!headers) return false;
  if (headers instanceof Map) {
    const v = headers.get(WARMUP_HEADER.toLowerCase());
    return v !== undefined && v !== null && String(v).trim() !== "";
  }
  const raw = typeof headers === "string" ? headers : headers.toString("latin1");
  return new RegExp(`^${WARMUP_HEADER}:[ \\t]*(\\r?\\n[ \\t]+)*\\S`, "im").test(raw);
}
