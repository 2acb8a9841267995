import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentChunks } from "../../db/schema";
import { idSource } from "../ids";
import { chunkText } from "./chunk";
import { embedTexts } from "./embed";
import { guessLanguage } from "./language";

export interface KnowledgeSource {
  workspaceId: string;
  agentId: string;
  kind: "document" | "url";
  /** The document's id (kind document). */
  documentId?: string;
  /** The filename or the page URL, as search results name it. */
  source: string;
  title: string | null;
  text: string;
}

/**
 * Splits a source's text into overlapping chunks and stores them, each with its language's tsvector
 * and, when the AI provider embeds, its vector (embedding failures leave the vector null: the chunk is
 * still found by full-text search). A page indexed again replaces its earlier chunks. Returns the count.
 */
export async function addKnowledge(db: DbOrTx, s: KnowledgeSource, now: Date): Promise<number> {
  const texts = chunkText(s.text);
  if (s.kind === "url") await removeKnowledge(db, s.agentId, "url", s.source);
  if (texts.length === 0) return 0;
  const language = guessLanguage(texts.slice(0, 5).join(" "));
  const vectors = await embedTexts(db, s.workspaceId, texts, now);
  const id = idSource("agc", texts.length);
  const rows = texts.map((text, i) => ({
    id: id(),
    workspaceId: s.workspaceId,
    agentId: s.agentId,
    sourceKind: s.kind,
    documentId: s.documentId ?? null,
    source: s.source,
    title: s.title,
    ordinal: i,
    text,
    language,
    embedding: vectors?.[i] ?? null,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insert(agentChunks).values(rows.slice(i, i + 500));
  return rows.length;
}

/** Drops the chunks of one source (a page's URL or a document's filename). */
export async function removeKnowledge(db: DbOrTx, agentId: string, kind: "document" | "url", source: string): Promise<void> {
  await db
    .delete(agentChunks)
    .where(and(eq(agentChunks.agentId, agentId), eq(agentChunks.sourceKind, kind), eq(agentChunks.source, source)));
}
