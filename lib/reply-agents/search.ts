import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentChunks } from "../../db/schema";
import { selectRows } from "../../db/bulk";
import { currentClock } from "../clock";
import { cosine, embedTexts } from "./embed";

/** One passage of an agent's knowledge that matches a question. */
export interface KnowledgeHit {
  /** The document's filename or the page's URL. */
  source: string;
  title: string | null;
  /** The whole passage (a chunk of ≤ ~900 characters): what an answer quotes. */
  snippet: string;
  /** Reciprocal-rank fusion of the full-text and the embedding ranking; higher is better. */
  score: number;
  sourceKind: "document" | "url";
}

/** Candidates taken from each ranking before fusing; RRF's k. */
const CANDIDATES = 50;
const RRF_K = 60;
/** Chunks compared by embedding per search (the most recent first); beyond it, full-text only. */
const MAX_VECTOR_SCAN = 5000;

type Candidate = {
  id: string;
  source: string;
  title: string | null;
  text: string;
  sourceKind: "document" | "url";
};

/**
 * Full-text ranking: the question parsed with each chunk's own language (websearch_to_tsquery), its
 * terms OR-ed (a question has words no passage repeats), ranked by ts_rank_cd (cover density,
 * normalised by length) so the passage holding most of the question's terms close together comes first.
 */
async function fullText(db: DbOrTx, workspaceId: string, agentId: string, query: string): Promise<Candidate[]> {
  return selectRows<Candidate & { rank: number }>(
    db,
    sql`
      select c.id, c.source, c.title, c.text, c.source_kind as "sourceKind", ts_rank_cd(c.tsv, q.q, 1) as rank
      from agent_chunks c
      cross join lateral (
        select nullif(replace(websearch_to_tsquery(c.language, ${query})::text, ' & ', ' | '), '')::tsquery as q
      ) q
      where c.agent_id = ${agentId} and c.workspace_id = ${workspaceId} and q.q is not null and c.tsv @@ q.q
      order by rank desc, c.ordinal asc
      limit ${CANDIDATES}`,
  );
}

/** Embedding ranking: cosine similarity of the question's vector to each chunk's, in JS. */
async function byVector(db: DbOrTx, workspaceId: string, agentId: string, query: string, now: Date): Promise<Candidate[]> {
  const [has] = await db
    .select({ id: agentChunks.id })
    .from(agentChunks)
    .where(and(eq(agentChunks.agentId, agentId), eq(agentChunks.workspaceId, workspaceId), isNotNull(agentChunks.embedding)))
    .limit(1);
  if (!has) return [];
  const qv = (await embedTexts(db, workspaceId, [query], now))?.[0];
  if (!qv) return [];
  const rows = await db
    .select({
      id: agentChunks.id,
      source: agentChunks.source,
      title: agentChunks.title,
      text: agentChunks.text,
      sourceKind: agentChunks.sourceKind,
      embedding: agentChunks.embedding,
    })
    .from(agentChunks)
    .where(and(eq(agentChunks.agentId, agentId), eq(agentChunks.workspaceId, workspaceId), isNotNull(agentChunks.embedding)))
    .orderBy(sql`${agentChunks.createdAt} desc`)
    .limit(MAX_VECTOR_SCAN);
  return rows
    .map((r) => ({ r, sim: cosine(qv, r.embedding ?? []) }))
    .filter((x) => x.sim > 0)
    .sort((a, b) => b.sim - a.sim)
    .slice(0, CANDIDATES)
    .map(({ r: { embedding: _e, ...c } }) => c);
}

/**
 * The agent's passages that best answer `query`, best first: Postgres full-text search, fused by
 * reciprocal rank with the embedding ranking when the AI provider embeds (one AI credit for the
 * question's vector; without credits or on an error, full-text alone). `limit` 1–50.
 */
export async function searchKnowledge(
  db: DbOrTx,
  workspaceId: string,
  agentId: string,
  query: string,
  limit = 5,
  now: Date = currentClock().now(),
): Promise<KnowledgeHit[]> {
  const q = query.trim().slice(0, 1000);
  if (!q) return [];
  const [ft, vec] = await Promise.all([fullText(db, workspaceId, agentId, q), byVector(db, workspaceId, agentId, q, now)]);
  const fused = new Map<string, { c: Candidate; score: number; best: number }>();
  for (const list of [ft, vec]) {
    list.forEach((c, i) => {
      const e = fused.get(c.id) ?? { c, score: 0, best: i };
      e.score += 1 / (RRF_K + i + 1);
      e.best = Math.min(e.best, i);
      fused.set(c.id, e);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best)
    .slice(0, Math.max(1, Math.min(50, limit)))
    .map(({ c, score }) => ({
      source: c.source,
      title: c.title,
      snippet: c.text,
      score: Math.round(score * 1e6) / 1e6,
      sourceKind: c.sourceKind,
    }));
}
