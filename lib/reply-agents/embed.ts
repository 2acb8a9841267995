import type { DbOrTx } from "../../db/client";
import { aiProviderFor } from "../ai/resolve";
import { useCredit } from "../ai/settings";
import { RateLimitedError } from "../errors";
import { stderrLogger } from "../log";

/** Texts per embeddings request (one AI credit each). */
export const EMBED_BATCH = 64;

/**
 * Embeddings for `texts` when the AI provider has an embeddings model, else null. Each request takes
 * one AI credit. Never throws and never blocks ingestion or search: no credits left, an error or a
 * timeout (AI_TIMEOUT_MS) gives null and the caller goes on with full-text search alone.
 */
export async function embedTexts(db: DbOrTx, workspaceId: string, texts: string[], now: Date): Promise<number[][] | null> {
  const p = await aiProviderFor(db, workspaceId);
  if (!p.embed || texts.length === 0) return null;
  const out: number[][] = [];
  try {
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      await useCredit(db, workspaceId, now);
      out.push(...(await p.embed(texts.slice(i, i + EMBED_BATCH).map((t) => t.slice(0, 8000)))));
    }
    return out;
  } catch (e) {
    if (!(e instanceof RateLimitedError)) stderrLogger.warn("agent embeddings skipped", { workspaceId, error: (e as Error).message });
    return null;
  }
}

export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
