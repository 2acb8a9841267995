/**
 * The Postgres text search configuration of a text's language, guessed from its commonest words, so
 * each chunk is stemmed in its own language (a query is parsed with the chunk's configuration).
 * Unknown or too short: `simple` (no stemming, no stop words) — still matches exact words.
 */
const STOP_WORDS: Record<string, string[]> = {
  english: ["the", "and", "of", "to", "is", "in", "that", "for", "with", "you", "are", "our", "we", "your", "this", "it", "on"],
  german: ["der", "die", "und", "das", "ist", "nicht", "mit", "sie", "wir", "ein", "eine", "für", "auf", "den", "ihr", "zu", "ich"],
  french: ["le", "la", "les", "et", "est", "des", "une", "pour", "vous", "nous", "dans", "que", "qui", "pas", "sur", "du", "avec"],
  spanish: ["el", "la", "los", "las", "y", "es", "que", "para", "con", "una", "por", "nuestro", "usted", "del", "se", "no", "su"],
  italian: ["il", "la", "che", "e", "di", "per", "una", "sono", "non", "con", "nostro", "gli", "del", "della", "è", "le", "si"],
  dutch: ["de", "het", "een", "en", "van", "is", "dat", "niet", "voor", "met", "wij", "onze", "u", "zijn", "op", "te", "ook"],
  portuguese: ["o", "a", "os", "que", "e", "do", "da", "para", "com", "uma", "não", "nosso", "você", "em", "se", "por", "são"],
};

const SETS = Object.entries(STOP_WORDS).map(([lang, words]) => [lang, new Set(words)] as const);

export type TextSearchConfig = keyof typeof STOP_WORDS | "simple";

export function guessLanguage(text: string): TextSearchConfig {
  const words =
    text
      .toLowerCase()
      .match(/\p{L}+/gu)
      ?.slice(0, 2000) ?? [];
  if (words.length < 3) return "simple";
  let best: TextSearchConfig = "simple";
  let bestHits = 0;
  for (const [lang, set] of SETS) {
    let hits = 0;
    for (const w of words) if (set.has(w)) hits++;
    if (hits > bestHits) {
      best = lang as TextSearchConfig;
      bestHits = hits;
    }
  }
  // A few shared short words (a, e, la) are not enough to call a language.
  return bestHits >= Math.max(2, words.length * 0.03) ? best : "simple";
}
