/**
 * Countries of the finder: stored and compared by their English name. Each entry lists the name, its
 * ISO 3166-1 alpha-2 code, other names and abbreviations, and the demonyms a sentence may use for it
 * ("German engineers", "British fintechs"). Imports and filters map names, codes and other names onto
 * the English name; the AI-search rules also read the demonyms (lib/finder/query-parser.ts).
 */

interface CountryEntry {
  name: string;
  code: string;
  aliases?: string[];
  demonyms?: string[];
}

const COUNTRIES: CountryEntry[] = [
  {
    name: "United States",
    code: "us",
    aliases: ["usa", "u.s.", "u.s.a.", "america", "united states of america", "the us", "the usa", "the states", "the united states"],
    demonyms: ["american", "americans"],
  },
  {
    name: "United Kingdom",
    code: "gb",
    aliases: ["uk", "u.k.", "great britain", "britain", "england", "scotland", "wales", "northern ireland", "the uk", "the united kingdom"],
    demonyms: ["british", "brits", "scottish", "welsh"],
  },
  { name: "Germany", code: "de", aliases: ["deutschland"], demonyms: ["german", "germans"] },
  { name: "France", code: "fr", demonyms: ["french"] },
  { name: "Spain", code: "es", aliases: ["españa"], demonyms: ["spanish"] },
  { name: "Italy", code: "it", aliases: ["italia"], demonyms: ["italian", "italians"] },
  { name: "Netherlands", code: "nl", aliases: ["the netherlands", "holland"], demonyms: ["dutch"] },
  { name: "Belgium", code: "be", demonyms: ["belgian", "belgians"] },
  { name: "Switzerland", code: "ch", demonyms: ["swiss"] },
  { name: "Austria", code: "at", aliases: ["österreich"], demonyms: ["austrian", "austrians"] },
  { name: "Ireland", code: "ie", aliases: ["republic of ireland"], demonyms: ["irish"] },
  { name: "Sweden", code: "se", demonyms: ["swedish", "swedes"] },
  { name: "Norway", code: "no", demonyms: ["norwegian", "norwegians"] },
  { name: "Denmark", code: "dk", demonyms: ["danish", "danes"] },
  { name: "Finland", code: "fi", demonyms: ["finnish", "finns"] },
  { name: "Poland", code: "pl", demonyms: ["polish"] },
  { name: "Portugal", code: "pt", demonyms: ["portuguese"] },
  { name: "Czech Republic", code: "cz", aliases: ["czechia"], demonyms: ["czech"] },
  { name: "Estonia", code: "ee", demonyms: ["estonian", "estonians"] },
  { name: "Greece", code: "gr", demonyms: ["greek"] },
  { name: "Romania", code: "ro", demonyms: ["romanian", "romanians"] },
  { name: "Luxembourg", code: "lu" },
  { name: "Turkey", code: "tr", aliases: ["türkiye", "turkiye"], demonyms: ["turkish"] },
  { name: "Ukraine", code: "ua", demonyms: ["ukrainian", "ukrainians"] },
  { name: "Canada", code: "ca", demonyms: ["canadian", "canadians"] },
  { name: "Mexico", code: "mx", demonyms: ["mexican", "mexicans"] },
  { name: "Brazil", code: "br", aliases: ["brasil"], demonyms: ["brazilian", "brazilians"] },
  { name: "Argentina", code: "ar", demonyms: ["argentinian", "argentine", "argentinians"] },
  { name: "Chile", code: "cl", demonyms: ["chilean", "chileans"] },
  { name: "Colombia", code: "co", demonyms: ["colombian", "colombians"] },
  { name: "Australia", code: "au", demonyms: ["australian", "australians", "aussie"] },
  { name: "New Zealand", code: "nz", demonyms: ["new zealander", "new zealanders"] },
  { name: "India", code: "in", demonyms: ["indian", "indians"] },
  { name: "Japan", code: "jp", demonyms: ["japanese"] },
  { name: "China", code: "cn", demonyms: ["chinese"] },
  { name: "South Korea", code: "kr", aliases: ["korea", "republic of korea"], demonyms: ["korean", "south korean"] },
  { name: "Singapore", code: "sg", demonyms: ["singaporean", "singaporeans"] },
  { name: "Hong Kong", code: "hk" },
  { name: "Indonesia", code: "id", demonyms: ["indonesian", "indonesians"] },
  { name: "Israel", code: "il", demonyms: ["israeli", "israelis"] },
  { name: "United Arab Emirates", code: "ae", aliases: ["uae", "emirates", "dubai"], demonyms: ["emirati"] },
  { name: "Saudi Arabia", code: "sa", aliases: ["ksa"], demonyms: ["saudi"] },
  { name: "South Africa", code: "za", demonyms: ["south african", "south africans"] },
  { name: "Nigeria", code: "ng", demonyms: ["nigerian", "nigerians"] },
  { name: "Kenya", code: "ke", demonyms: ["kenyan", "kenyans"] },
  { name: "Egypt", code: "eg", demonyms: ["egyptian", "egyptians"] },
];

/** Lower-case name, code or other name → English name (what imports and filters map). */
const BY_NAME = new Map<string, string>();
for (const c of COUNTRIES) {
  for (const k of [c.name, c.code, ...(c.aliases ?? [])]) BY_NAME.set(k.toLowerCase(), c.name);
}
// The common abbreviation of the United Kingdom, although its ISO code is GB.
BY_NAME.set("uk", "United Kingdom");

/** The canonical name of a country written as a name, a code or an alias; an unknown one as written (trimmed). */
export function normalizeCountry(raw: string): string {
  const s = raw.trim();
  return BY_NAME.get(s.toLowerCase()) ?? s;
}

export const KNOWN_COUNTRIES = COUNTRIES.map((c) => c.name);

/** How a sentence names a country: a word in any case, or a code that counts only in capitals. */
export interface CountryWord {
  word: string;
  name: string;
  /** A two-letter code: "DE", "FR" count; "de", "in", "no" are words of the sentence. */
  code: boolean;
}

/**
 * Every way the AI-search rules recognise a country, longest first (so "the united states" is taken
 * before "united states", "south african" before "african"). "IT" is left out: it is the department.
 * "UK" and "USA" are aliases (any case); "US" is the code (capitals: "us" is a word).
 */
export function countryWords(): CountryWord[] {
  const out: CountryWord[] = [];
  for (const c of COUNTRIES) {
    for (const w of [c.name, ...(c.aliases ?? []), ...(c.demonyms ?? [])]) out.push({ word: w.toLowerCase(), name: c.name, code: false });
    if (c.code !== "it") out.push({ word: c.code, name: c.name, code: true });
  }
  return out.sort((a, b) => b.word.length - a.word.length);
}
