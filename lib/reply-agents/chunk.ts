/** Chunking for the knowledge base: passages of about CHUNK_CHARS, overlapping by about OVERLAP_CHARS. */
export const CHUNK_CHARS = 900;
export const OVERLAP_CHARS = 180;
/** A document's chunks are capped (a 10 MB text file is ~12k chunks): the rest is not indexed. */
export const MAX_CHUNKS = 2000;

/** Whitespace tidied: runs of spaces collapsed, at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Sentences (or lines) with their trailing whitespace, so joining them gives the text back. */
function pieces(text: string): string[] {
  const out = text.match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n+|$)\s*/g) ?? [];
  // A "sentence" longer than a chunk (a table, a run-on line) is cut at word boundaries.
  return out.flatMap((p) =>
    p.length <= CHUNK_CHARS ? [p] : (p.match(new RegExp(`[\\s\\S]{1,${CHUNK_CHARS}}(?:\\s|$)|\\S+`, "g")) ?? [p]),
  );
}

/**
 * Splits text into passages of whole sentences up to CHUNK_CHARS; each passage starts with the last
 * ~OVERLAP_CHARS of the previous one, so an answer that straddles a boundary is whole in one of them.
 */
export function chunkText(raw: string): string[] {
  const text = normalizeText(raw);
  if (!text) return [];
  const parts = pieces(text);
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of parts) {
    if (size + p.length > CHUNK_CHARS && current.length) {
      chunks.push(current.join("").trim());
      if (chunks.length >= MAX_CHUNKS) return chunks;
      const keep: string[] = [];
      let kept = 0;
      for (let i = current.length - 1; i >= 0 && kept + current[i].length <= OVERLAP_CHARS; i--) {
        keep.unshift(current[i]);
        kept += current[i].length;
      }
      if (!keep.length) {
        // The last sentence alone is longer than the overlap: carry its tail from a word boundary.
        const last = current[current.length - 1];
        const tail = last.slice(-OVERLAP_CHARS).replace(/^\S*\s/, "");
        if (tail) keep.push(tail);
        kept = tail.length;
      }
      current = keep;
      size = kept;
    }
    current.push(p);
    size += p.length;
  }
  if (current.length) chunks.push(current.join("").trim());
  return chunks.filter((c) => c.length > 0);
}
