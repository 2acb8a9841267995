/**
 * The industries the finder knows by name. The industry filter is an open list (any value an import
 * brings), stored lower-case; the well-known industries below are also stored under one spelling, so
 * "E-Commerce", "eCommerce" and "Online Retail" in a CSV, "e-commerce" from the AI endpoint and the
 * word "ecommerce" in an AI-search sentence are all the value `ecommerce`. Each entry: the stored
 * value, the other spellings an import or a filter may use (whole values, any case), and the pattern
 * the AI-search rules look for in a sentence (lower-case text).
 */

interface IndustryEntry {
  value: string;
  aliases: string[];
  words: RegExp;
}

export const INDUSTRIES: IndustryEntry[] = [
  {
    value: "fintech",
    aliases: ["fin tech", "fin-tech", "financial technology", "financial technologies", "payments"],
    words: /\bfin-?tech(?:s)?\b|\bfinancial technology\b|\bpayments? (?:companies|startups|providers)\b/,
  },
  { value: "insurance", aliases: ["insurtech", "insurance tech"], words: /\binsur(?:ance|tech)s?\b|\binsurers?\b/ },
  { value: "banking", aliases: ["banks", "bank"], words: /\bbanking\b|\bbanks?\b/ },
  {
    value: "financial services",
    aliases: ["finance", "financial", "investment management", "capital markets"],
    words: /\bfinancial services\b|\basset managers?\b|\binvestment (?:firms|management)\b/,
  },
  { value: "saas", aliases: ["software as a service", "b2b saas"], words: /\bsaas\b|\bsoftware as a service\b/ },
  {
    value: "software",
    aliases: ["computer software", "software development", "software company"],
    words: /\bsoftware (?:companies|firms|vendors|houses|businesses|industry)\b|\bsoftware\b(?! engineers?| developers?)/,
  },
  {
    value: "it services",
    aliases: ["information technology and services", "it services and it consulting", "information technology"],
    words: /\bit services\b|\bmanaged services? providers?\b|\bmsps?\b/,
  },
  {
    value: "healthcare",
    aliases: ["health care", "hospital & health care", "hospitals and health care", "health", "healthtech", "medtech", "digital health"],
    words: /\bhealth ?care\b|\bhealth ?tech\b|\bmed ?tech\b|\bdigital health\b|\bhospitals?\b|\bhealth\b/,
  },
  { value: "biotech", aliases: ["biotechnology", "life sciences"], words: /\bbio ?tech(?:nology)?s?\b|\blife sciences\b/ },
  { value: "pharmaceuticals", aliases: ["pharma", "pharmaceutical"], words: /\bpharma(?:ceuticals?)?\b/ },
  {
    value: "ecommerce",
    aliases: ["e-commerce", "e commerce", "online retail", "internet retail", "d2c", "dtc", "direct to consumer"],
    words: /\be-?commerce\b|\bonline (?:shops|stores|retail(?:ers)?)\b|\bd2c\b|\bdtc\b/,
  },
  { value: "retail", aliases: ["retailers"], words: /\bretail(?:ers?)?\b/ },
  {
    value: "education",
    aliases: ["edtech", "e-learning", "higher education", "education management"],
    words: /\bed-?tech\b|\beducation\b|\be-?learning\b|\buniversit(?:y|ies)\b/,
  },
  { value: "manufacturing", aliases: ["industrial", "industrial manufacturing"], words: /\bmanufactur(?:ing|ers?)\b/ },
  {
    value: "logistics",
    aliases: ["logistics and supply chain", "supply chain", "transportation", "freight"],
    words: /\blogistics\b|\bsupply chain\b|\bfreight\b|\bshipping companies\b/,
  },
  { value: "real estate", aliases: ["proptech", "property", "commercial real estate"], words: /\breal estate\b|\bprop ?tech\b/ },
  {
    value: "cybersecurity",
    aliases: ["cyber security", "computer & network security", "computer and network security", "information security", "security"],
    words: /\bcyber ?security\b|\binfosec\b|\binformation security\b|\bsecurity (?:companies|vendors|firms)\b/,
  },
  { value: "consulting", aliases: ["management consulting", "consultancy", "consultancies"], words: /\bconsult(?:ing|ancy|ancies)\b/ },
  { value: "media", aliases: ["media production", "publishing", "online media"], words: /\bmedia\b|\bpublish(?:ing|ers)\b/ },
  { value: "gaming", aliases: ["computer games", "video games", "games"], words: /\bgaming\b|\bvideo ?games?\b|\bgame studios?\b/ },
  { value: "automotive", aliases: ["cars", "automobiles"], words: /\bautomotive\b|\bcar makers?\b|\bcarmakers?\b/ },
  {
    value: "energy",
    aliases: ["oil & energy", "renewables", "renewable energy", "cleantech", "climate tech"],
    words: /\benergy\b|\brenewables?\b|\bclean ?tech\b|\bclimate ?tech\b/,
  },
  { value: "telecommunications", aliases: ["telecom", "telecoms", "telco"], words: /\btelecom(?:munications|s)?\b|\btelcos?\b/ },
  {
    value: "marketing & advertising",
    aliases: ["marketing and advertising", "advertising", "marketing agency", "ad tech", "adtech"],
    words: /\bmarketing agenc(?:y|ies)\b|\badvertising\b|\bad ?tech\b|\bagenc(?:y|ies)\b/,
  },
  {
    value: "legal services",
    aliases: ["law practice", "legal", "law firms", "law firm", "legaltech"],
    words: /\blaw firms?\b|\blegal ?tech\b|\blegal services\b/,
  },
  {
    value: "hospitality",
    aliases: ["hotels", "travel", "leisure, travel & tourism", "tourism"],
    words: /\bhospitality\b|\bhotels?\b|\btravel companies\b|\btourism\b/,
  },
  {
    value: "food & beverages",
    aliases: ["food and beverages", "food", "beverages", "foodtech"],
    words: /\bfood (?:and|&) beverages?\b|\bfood ?tech\b|\bf&b\b/,
  },
  { value: "construction", aliases: ["contech", "building"], words: /\bconstruction\b/ },
  {
    value: "non-profit",
    aliases: ["nonprofit", "non profit", "ngo", "charity", "non-profit organization management"],
    words: /\bnon-?profits?\b|\bngos?\b|\bcharit(?:y|ies)\b/,
  },
  { value: "government", aliases: ["government administration", "public sector"], words: /\bgovernment\b|\bpublic sector\b/ },
  {
    value: "artificial intelligence",
    aliases: ["ai", "machine learning"],
    words: /\bai (?:companies|startups|labs?)\b|\bartificial intelligence\b|\bmachine learning (?:companies|startups)\b/,
  },
];

const BY_SPELLING = new Map<string, string>();
for (const i of INDUSTRIES) for (const k of [i.value, ...i.aliases]) BY_SPELLING.set(k, i.value);

/** An industry as stored: a known one under its one spelling, any other lower-case and trimmed. */
export function normalizeIndustry(raw: string): string {
  const s = raw.trim().toLowerCase().replace(/\s+/g, " ");
  return BY_SPELLING.get(s) ?? s;
}
