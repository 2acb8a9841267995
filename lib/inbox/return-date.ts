import { type ParsedComponents, de, en, es, fr, it, nl, pt } from "chrono-node";

/**
 * The return date an automatic (out-of-office) reply names. Pure: no clock, no I/O. The rules, in words
 * (docs/sequences.md, "Out-of-office replies", says the same):
 * - A date counts only in a sentence (or line) with a cue: a return word ("back", "zurück", "de retour", "regreso",
 *   "terug", "rientro", "volto"…) or an absence word ("out of office", "Urlaub", "absent", "vacaciones"…) with
 *   "until" or a range. Other dates ("sent on 3 Dec", a signature's date, "I'll get back to you on Monday") do not count.
 * - "back on X" / "return X" / "wieder ab X" → X. The date nearest to the return word wins.
 * - "away until X" / "bis X" / "jusqu'au X" / "hasta el X" / "tot X" / "fino al X" / "até X" → X: the absence ends
 *   that day and we take it as the first day back. Only when the words say the day is included ("bis einschließlich",
 *   "through", "up to and including", "tot en met", "t/m", "inclus", "inclusive", "compreso") → the day after X.
 * - A range "from A to B" / "vom A bis B" / "du A au B" / "del A al B" / "van A tot B" / "dal A al B" / "de A a B"
 *   names the days away, both ends included → the day after B.
 * - A return word beats a range or an "until" anywhere in the text; otherwise the first sentence with a date wins.
 * - receivedAt (its calendar day in opts.timeZone, UTC by default) anchors relative dates: "tomorrow", "in two weeks",
 *   a bare weekday (the next such day on or after that day), "next week" (the Monday after).
 * - A date without a year is its next occurrence on or after that day (received 20 Dec, "back 3 January" → next year).
 *   A date with an explicit year before that day is ignored; the caller gets null when no other date is found.
 * - Numeric day/month (4/1) is read month first only for a US sender: opts.locale with region US (en-US, es-US), or
 *   an English text with no region and a sender domain ending in .com/.us/.gov/.edu. Everyone else: day first.
 *   A reading that cannot be a date (13/1 month first) falls back to the other order.
 */

export interface ReturnDateOptions {
  receivedAt: Date;
  /** BCP 47 tag from Content-Language or the sender's language, e.g. "en-US", "de". */
  locale?: string;
  /** IANA zone whose calendar day receivedAt falls on; UTC when absent. */
  timeZone?: string;
  /** The sender's domain (e.g. "acme.com"), a hint for the numeric date order of English replies. */
  senderDomain?: string;
}

export interface ReturnDate {
  /** YYYY-MM-DD */
  date: string;
  /** The sentence or line the date was found in, trimmed, at most 200 characters. */
  text: string;
}

type Lang = "en" | "de" | "fr" | "es" | "nl" | "it" | "pt";
const LANGS: Lang[] = ["en", "de", "fr", "es", "nl", "it", "pt"];
const PARSERS = { en, de, fr, es, nl, it, pt };

interface Cues {
  back: string;
  absence: string;
  until: string;
  /** Words that make an "until" include its day. */
  inclusive: string;
  /** Phrases where a return word does not mean coming back ("get back to you"). */
  notBack: string;
}

const CUES: Record<Lang, Cues> = {
  en: {
    back: "back|return|returning|returns|reopens?|reopening|resume|resuming|again (?:on|from)",
    absence:
      "closed|out of (?:the )?office|ooo|away|absent|on (?:annual |parental |sick )?leave|holidays?|" +
      "vacation|unavailable|off|travell?ing|limited access|not (?:be )?(?:in|at) (?:the|my) (?:office|desk)",
    until: "until|till|til|through|thru|up to and including",
    inclusive: "through|thru|up to and including|inclusive|included",
    notBack: "get(?:ting)? back to (?:you|them)|back to you|call (?:you )?back|write back|return (?:your|the) (?:call|e-?mail|message)",
  },
  de: {
    back: "zurück|wieder geöffnet|wieder|rückkehr",
    absence:
      "abwesend|geschlossen|betriebsferien|urlaub|nicht im (?:büro|hause?)|nicht erreichbar|" +
      "außer haus|nicht (?:da|verfügbar)|elternzeit|dienstreise|krank|erreichen sie mich nicht|außerhalb des büros",
    until: "bis einschließlich|bis inklusive|bis zum|bis zur|bis",
    inclusive: "einschließlich|inklusive|inkl\\.?",
    notBack: "zurückruf\\w*|zurückmeld\\w*|(?:rufe|melde)\\w*\\s+(?:\\S+\\s+){0,5}zurück",
  },
  fr: {
    back: "de retour|réouverture|rouvre|retour|reviens|reviendrai|rentre|rentrerai|à nouveau|de nouveau|reprends|reprendrai|reprise",
    absence: "absente?|fermée?s?|congés?|vacances|pas au bureau|hors du bureau|en déplacement|indisponible|ne serai pas",
    until: "jusqu['’]au|jusqu['’]à|jusqu['’]",
    inclusive: "inclus|inclusivement|compris",
    notBack: "reviendrai vers vous|revenir vers vous|reviens vers vous",
  },
  es: {
    back: "de vuelta|reabrimos|reabre|vuelvo|volveré|regreso|regresaré|regresa|de nuevo|nuevamente|me reincorporo|me reincorporaré|retorno",
    absence: "fuera de la oficina|cerrad[oa]s?|ausente|vacaciones|fuera|no estaré|de permiso|de viaje",
    until: "hasta el|hasta",
    inclusive: "inclusive|incluido",
    notBack: "volveré a (?:contactar|escribir|llamar)\\w*",
  },
  nl: {
    back: "terug|weer|aanwezig vanaf",
    absence: "afwezig|gesloten|vakantie|niet op kantoor|niet aanwezig|niet bereikbaar|verlof|vrij",
    until: "tot en met|t/m|tot",
    inclusive: "tot en met|t/m",
    notBack: "terugbel\\w*|bel\\w* (?:\\S+\\s+){0,4}terug|kom (?:ik )?(?:\\S+\\s+){0,4}terug op",
  },
  it: {
    back: "rientro|riapertura|riapriremo|rientrerò|di ritorno|ritorno|tornerò|torno|nuovamente|di nuovo|rientrata|rientrato",
    absence: "fuori (?:ufficio|sede)|chius[oaie]|assente|ferie|vacanza|non sarò|in viaggio|non disponibile",
    until: "fino al|fino a|sino al",
    inclusive: "compreso|incluso",
    notBack: "la ricontatterò",
  },
  pt: {
    back: "volto|reabertura|reabrimos|voltarei|regresso|regressarei|retorno|retornarei|estarei de volta|de volta|novamente",
    absence: "fora do escritório|fechad[oa]s?|ausente|férias|de licença|fora",
    until: "até ao|até o|até",
    inclusive: "inclusive|incluído",
    notBack: "retorn\\w* (?:o |a )?(?:seu |sua )?(?:contato|contacto|ligação|e-?mail|mensagem)",
  },
};

/** Common short words, to tell the reply's language. */
const STOPWORDS: Record<Lang, string> = {
  en: "the|and|you|your|i|is|will|for|with|my|am",
  de: "und|der|die|das|ich|ist|sie|nicht|bin|mit|ihre",
  fr: "je|le|la|les|et|vous|du|est|suis|serai|au|votre",
  es: "el|los|y|usted|estoy|del|que|su|estaré|por",
  nl: "ik|het|een|en|ben|met|van|niet|u|op",
  it: "il|sono|di|per|sarò|non|che|della|al|ufficio",
  pt: "o|estou|do|da|com|não|estarei|os|em|na",
};

const word = (alts: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts})(?![\\p{L}])`, "giu");
const NEXT_WEEK = word(
  "next week|nächste woche|kommende woche|la semaine prochaine|la próxima semana|la semana que viene|volgende week|la prossima settimana|na próxima semana|na semana que vem",
);
const AFTERWARDS =
  /(?<!\p{L})(?:danach|anschließend|after that|afterwards|thereafter|ensuite|après|después|luego|daarna|dopo|poi|depois)(?!\p{L})/iu;
const NEXT_WORD = /(?<!\p{L})(next|nächste\w*|kommende\w*|prochain\w*|próxim\w*|volgende|prossim\w*)(?!\p{L})/iu;
const RANGE_JOIN = new RegExp(
  [
    "^\\.?\\s*(?:to|till|until|through|thru|and|und|et|y|e|en|[-–—]|bis(?: einschließlich| zum| zur)?|au|à|al|a|ao|y el",
    "hasta(?: el)?|tot(?: en met)?|t/m|fino al?|até(?: ao| o| a)?)\\s*(?:the|el|le|den|dem|il|o|dia)?\\s*$",
  ].join("|"),
  "iu",
);
const QUOTE_START = new RegExp(
  [
    "^(?:-{2,}\\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original|oorspronkelijk bericht",
    "messaggio originale|mensagem original)",
    "(?:on|am|le|el|op|il|em) .{4,80} (?:wrote|schrieb|a écrit|escribió|schreef|ha scritto|escreveu)\\s*:",
    "(?:from|von|de|van|da)\\s?:\\s)",
  ].join("|"),
  "i",
);

interface Day {
  y: number;
  m: number;
  d: number;
}
interface Candidate {
  start: number;
  end: number;
  day: Day | null;
  last?: Day | null;
}

/** The first day the sender of an automatic reply says they are back, or null. */
export function findReturnDate(text: string, opts: ReturnDateOptions): ReturnDate | null {
  const today = dayIn(opts.receivedAt, opts.timeZone ?? "UTC");
  const lines = ownLines(text);
  const textLang = languageOf(lines.join("\n"), opts.locale);
  const monthFirst = readsMonthFirst(opts, textLang);
  let best: { priority: number; date: string; text: string } | null = null;
  for (const sentence of lines.flatMap(splitSentences)) {
    const found = readSentence(sentence, { today, textLang, monthFirst });
    if (found && (!best || found.priority < best.priority)) best = { ...found, text: excerpt(sentence, found.at) };
    if (best?.priority === 0) break;
  }
  return best ? { date: best.date, text: best.text } : null;
}

interface SentenceContext {
  today: Day;
  textLang: Lang | null;
  monthFirst: boolean;
}

function readSentence(sentence: string, ctx: SentenceContext): { priority: number; date: string; at: number } | null {
  const cued = LANGS.filter((l) => hits(sentence, CUES[l].back).length || hits(sentence, CUES[l].absence).length);
  const langs = ctx.textLang && !cued.includes(ctx.textLang) ? [ctx.textLang, ...cued] : cued;
  if (!langs.length) return null;
  // Words are read in the reply's language when its cues are in the sentence, so "mon" in French is not Monday.
  const readIn = ctx.textLang && cued.includes(ctx.textLang) ? [ctx.textLang] : langs;
  const cands = candidates(sentence, readIn, ctx).filter((c) => c.day);
  if (!cands.length) return null;
  const backs = langs.flatMap((l) => returnCues(sentence, l));
  if (backs.length) {
    const c = nearest(cands, backs);
    // "bis 6. Januar im Urlaub, danach wieder erreichbar": the return word comes after the date with "afterwards".
    const cue = backs.find((q) => q.start >= c.end);
    const after = cue && AFTERWARDS.test(sentence.slice(c.end, cue.start)) && !backs.some((q) => q.end <= c.start);
    return { priority: 0, date: iso(after ? addDays(c.day!, 1) : c.day!), at: c.start };
  }
  if (!langs.some((l) => hits(sentence, CUES[l].absence).length)) return null;
  const range = rangeEnd(sentence, cands);
  if (range) return { priority: 1, date: iso(addDays(range.day, 1)), at: range.at };
  for (const l of langs) {
    for (const u of hits(sentence, CUES[l].until)) {
      const c = cands.find(
        (x) => x.start >= u.end && /^[\s,]*(?:the|le|el|den|dem|il|o|dia|de)?[\s,]*$/iu.test(sentence.slice(u.end, x.start)),
      );
      if (!c) continue;
      const around = `${u.text} ${sentence.slice(c.end, c.end + 14)}`;
      const inclusive = new RegExp(`(?<!\\p{L})(?:${CUES[l].inclusive})(?!\\p{L})`, "iu").test(around);
      return { priority: 1, date: iso(inclusive ? addDays(c.day!, 1) : c.day!), at: c.start };
    }
  }
  return null;
}

/** Return words of one language in a sentence, leaving out those inside a "get back to you" phrase. */
function returnCues(sentence: string, lang: Lang): { start: number; end: number }[] {
  const not = hits(sentence, CUES[lang].notBack);
  return hits(sentence, CUES[lang].back).filter((b) => !not.some((n) => b.start < n.end && n.start < b.end));
}

function nearest(cands: Candidate[], cues: { start: number; end: number }[]): Candidate {
  const distance = (c: Candidate) =>
    Math.min(...cues.map((q) => (c.start >= q.end ? c.start - q.end : q.start >= c.end ? 2 * (q.start - c.end) + 1 : 0)));
  return [...cands].sort((a, b) => distance(a) - distance(b))[0]!;
}

/** A range's last day: a chrono range, or two dates joined by "to"/"bis"/"au"/"al"/"tot"/"a"… */
function rangeEnd(sentence: string, cands: Candidate[]): { day: Day; at: number } | null {
  for (const [i, c] of cands.entries()) {
    if (c.last) return { day: c.last, at: c.start };
    const next = cands[i + 1];
    if (next?.day && RANGE_JOIN.test(sentence.slice(c.end, next.start))) return { day: next.day, at: c.start };
  }
  return null;
}

/** Dates in a sentence: ISO and numeric ones read by our own order rule, "next week", then chrono for words. */
function candidates(sentence: string, langs: Lang[], ctx: SentenceContext): Candidate[] {
  const out: Candidate[] = [];
  let masked = sentence;
  const take = (start: number, end: number, day: Day | null) => {
    out.push({ start, end, day });
    masked = masked.slice(0, start) + " ".repeat(end - start) + masked.slice(end);
  };
  for (const m of sentence.matchAll(/(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g)) {
    take(m.index, m.index + m[0].length, dated({ y: +m[1]!, m: +m[2]!, d: +m[3]! }, true, ctx.today));
  }
  const numeric =
    /(?<![\d./-]|(?<!\p{L})(?:at|um|om|alle|às|las|vers)\s)(\d{1,2})([./-])(\d{1,2})(?:\2(\d{4}|\d{2}))?(?![\d/-]|\.\d|\s?(?:uhr|uur|h|hrs?|am|pm)\b)/giu;
  for (const m of masked.matchAll(numeric)) {
    const [a, b] = [+m[1]!, +m[3]!];
    const order = ctx.monthFirst ? [b, a] : [a, b];
    const [d, mo] = valid(order[0]!, order[1]!) ? order : [order[1]!, order[0]!];
    const y = m[4] ? (m[4].length === 2 ? 2000 + +m[4] : +m[4]) : ctx.today.y;
    if (valid(d!, mo!)) take(m.index, m.index + m[0].length, dated({ y, m: mo!, d: d! }, Boolean(m[4]), ctx.today));
  }
  for (const m of masked.matchAll(/(?<!\p{L})the (\d{1,2})(?:st|nd|rd|th)(?!\s+(?:of\s+)?\p{L})/giu)) {
    take(m.index, m.index + m[0].length, nextDayOfMonth(+m[1]!, ctx.today));
  }
  for (const m of masked.matchAll(NEXT_WEEK)) take(m.index, m.index + m[0].length, addDays(ctx.today, 7 - ((weekday(ctx.today) + 6) % 7)));
  const ref = new Date(ctx.today.y, ctx.today.m - 1, ctx.today.d, 12);
  for (const lang of langs) {
    for (const r of PARSERS[lang].parse(masked, ref)) {
      if (out.some((c) => r.index < c.end && c.start < r.index + r.text.length)) continue;
      const day = fromChrono(r.start, r.text, ctx.today);
      if (day === undefined) continue;
      out.push({ start: r.index, end: r.index + r.text.length, day, last: r.end ? fromChrono(r.end, r.text, ctx.today) : undefined });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** undefined: not a day (a time, a month alone); null: a day before today with an explicit year. */
function fromChrono(c: ParsedComponents, text: string, today: Day): Day | null | undefined {
  const day = { y: c.get("year")!, m: c.get("month")!, d: c.get("day")! };
  if (c.isCertain("day") && !c.isCertain("month") && !c.isCertain("year")) return nextDayOfMonth(day.d, today);
  if (c.isCertain("day")) return dated(day, c.isCertain("year"), today);
  // A weekday alone counts when written out ("Mon" is too often a word of another language).
  if (!c.isCertain("weekday") || !/\p{L}{4,}/u.test(text)) return undefined;
  if (NEXT_WORD.test(text)) return dated(day, true, today);
  return addDays(today, (c.get("weekday")! - weekday(today) + 7) % 7);
}

/** "the 5th": this month's when not yet past, else the next month that has that day. */
function nextDayOfMonth(d: number, today: Day): Day | null {
  for (let i = 0; i < 13; i++) {
    const m = ((today.m - 1 + i) % 12) + 1;
    const y = today.y + Math.floor((today.m - 1 + i) / 12);
    if (valid(d, m, y) && (i > 0 || d >= today.d)) return { y, m, d };
  }
  return null;
}

function dated(day: Day, yearGiven: boolean, today: Day): Day | null {
  if (!valid(day.d, day.m, day.y)) return null;
  if (cmp(day, today) >= 0) return day;
  if (yearGiven) return null;
  const next = { ...day, y: today.y + 1 };
  return valid(next.d, next.m, next.y) ? next : null;
}

function readsMonthFirst(opts: ReturnDateOptions, textLang: Lang | null): boolean {
  const [lang, region] = (opts.locale ?? "").toLowerCase().split(/[-_]/);
  if (region) return ["us", "pr", "ph", "gu", "as", "mp", "vi", "um"].includes(region);
  const english = lang ? lang === "en" : textLang === "en";
  return english && /\.(?:com|us|gov|edu)$/i.test(opts.senderDomain ?? "");
}

/** The language of opts.locale if we read it, else the language with the most cue words in the text. */
function languageOf(text: string, locale?: string): Lang | null {
  const tag = (locale ?? "").toLowerCase().slice(0, 2) as Lang;
  if (LANGS.includes(tag)) return tag;
  const score = (l: Lang) => hits(text, STOPWORDS[l]).length + 2 * (hits(text, CUES[l].back).length + hits(text, CUES[l].absence).length);
  const ranked = LANGS.map((l) => [l, score(l)] as const).sort((a, b) => b[1] - a[1]);
  return ranked[0]![1] > 0 ? ranked[0]![0] : null;
}

/** The reply's own lines: quoted lines and everything from a quoted original message on are left out. */
function ownLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (QUOTE_START.test(line)) break;
    if (line && !line.startsWith(">")) out.push(line);
  }
  return out;
}

/** A line's sentences; a full stop after a digit ("4. Januar", "12.12.") does not end one. */
function splitSentences(line: string): string[] {
  return line.split(/(?<=(?<!\d)[.!?])\s+(?=[\p{Lu}¡¿])/u).filter(Boolean);
}

function excerpt(sentence: string, at: number): string {
  const s = sentence.trim();
  if (s.length <= 200) return s;
  const start = Math.max(0, Math.min(at - 80, s.length - 200));
  return s.slice(start, start + 200).trim();
}

function hits(s: string, alts: string): { start: number; end: number; text: string }[] {
  return [...s.matchAll(word(alts))].map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] }));
}

function dayIn(at: Date, timeZone: string): Day {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { y: get("year"), m: get("month"), d: get("day") };
}

function valid(d: number, m: number, y = 2000): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}
const utc = (x: Day) => Date.UTC(x.y, x.m - 1, x.d);
const cmp = (a: Day, b: Day) => utc(a) - utc(b);
const weekday = (x: Day) => new Date(utc(x)).getUTCDay();
function addDays(x: Day, n: number): Day {
  const t = new Date(utc(x) + n * 86_400_000);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
const iso = (x: Day) => `${x.y}-${String(x.m).padStart(2, "0")}-${String(x.d).padStart(2, "0")}`;
