import { rspamdUrl } from "../env";

/**
 * An operator's rspamd (RSPAMD_URL, its normal worker's HTTP API) scoring messages before they are
 * sent: POST /checkv2 with the raw message, answered with the symbols that fired and their points.
 * RSPAMD_URL is the operator's own setting, never a user's, so a plain fetch with a timeout is enough.
 */

export const RSPAMD_TIMEOUT_MS = 10_000;

export interface RspamdSymbol {
  name: string;
  score: number;
  description: string | null;
}

export interface RspamdVerdict {
  score: number;
  /** rspamd's action at that score ("no action", "add header", "reject" …). */
  action: string;
  /** The symbols that fired, the most points first. */
  symbols: RspamdSymbol[];
}

interface CheckV2 {
  score?: number;
  action?: string;
  symbols?: Record<string, { name?: string; score?: number; description?: string }>;
}

/** One message scored by the rspamd at `base` (its normal worker, e.g. http://127.0.0.1:11333). */
export async function rspamdCheck(base: string, raw: string, timeoutMs = RSPAMD_TIMEOUT_MS): Promise<RspamdVerdict> {
  const res = await fetch(`${base.replace(/\/+$/, "")}/checkv2`, {
    method: "POST",
    // Scored before it leaves, the message has no connection yet: rspamd is told it comes from the local
    // host, so its checks of the connecting IP and HELO (rDNS, hostname) stay out of the score.
    headers: { "content-type": "message/rfc822", IP: "127.0.0.1" },
    body: raw,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`rspamd answered HTTP ${res.status}`);
  const json = (await res.json()) as CheckV2;
  const symbols = Object.entries(json.symbols ?? {})
    .map(([key, s]) => ({ name: s.name ?? key, score: Math.round((s.score ?? 0) * 100) / 100, description: s.description ?? null }))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return { score: Math.round((json.score ?? 0) * 100) / 100, action: json.action ?? "no action", symbols };
}

export interface ScoredStep<S> {
  step: S;
  verdict: RspamdVerdict;
}

/**
 * Each step's rendered message scored by the operator's rspamd; null when RSPAMD_URL is unset. An
 * unreachable rspamd or a refused message is reported as `error` (the first one), with the steps
 * scored before it.
 */
export async function scoreWithRspamd<S>(
  messages: { step: S; raw: string }[],
): Promise<{ error: string | null; steps: ScoredStep<S>[] } | null> {
  const base = rspamdUrl();
  if (!base) return null;
  const steps: ScoredStep<S>[] = [];
  for (const m of messages) {
    try {
      steps.push({ step: m.step, verdict: await rspamdCheck(base, m.raw) });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      const why = err.name === "TimeoutError" ? `no answer within ${RSPAMD_TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.message);
      return { error: `rspamd at ${base}: ${why}`, steps };
    }
  }
  return { error: null, steps };
}
