export type Intent =
  | "UNCLASSIFIED"
  | "INTERESTED"
  | "NOT_INTERESTED"
  | "OUT_OF_OFFICE"
  | "WRONG_PERSON"
  | "UNSUBSCRIBE_REQUEST"
  | "QUESTION";

/** The new text of a reply: quoted lines and everything after "On … wrote:" / a forwarded original removed. */
export function newText(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  for (const line of lines) {
    if (
      /^\s*On .{4,200}wrote:\s*$/i.test(line) ||
      /^-{2,}\s*Original Message\s*-{2,}/i.test(line) ||
      (/^\s*From:\s.+/i.test(line) && out.length > 0)
    )
      break;
    if (/^\s*>/.test(line)) continue;
    out.push(line);
  }
  return out.join("\n").trim();
}

/** One pattern of many alternatives, written as short pieces so each stays readable. */
function oneOf(flags: string, ...parts: RegExp[]): RegExp {
  return new RegExp(parts.map((r) => r.source).join("|"), flags);
}

const AUTO_SUBJECT = oneOf(
  "i",
  /^\s*(automatic reply|auto[- ]?reply|autoreply|out of (the )?office|ooo\b|abwesenheitsnotiz)/,
  /^\s*(réponse automatique|respuesta automática|risposta automatica|automatisch antwoord)/,
);

/*
 * The text rule. A person who mentions being away while answering us is a person: the text
 * counts as automatic only when the whole new text reads as a notice — every clause before the
 * sign-off is one an automatic reply is made of (away, back on, limited access, your email will not be
 * forwarded, for urgent matters contact…, greetings, dates, names and contact details), at least one
 * says the writer is away or that this is an automatic message, and nothing asks or answers anything.
 * Clauses are matched in English, German, French, Spanish, Dutch, Italian and Portuguese.
 */

/** The writer is away, or the message says it is automatic: a notice needs one of these. */
const AWAY = oneOf(
  "iu",
  /out of (the )?office|\booo\b|on (annual |sick |parental |maternity |paternity |medical |study |holiday |vacation )?leave/u,
  /on (vacation|holidays?|a business trip|business travel|sabbatical)|away from (the |my )?(office|desk|e-?mail)/u,
  /\b(i am|i'm|i will be|i'll be|currently|presently) (currently |now )?(away|travell?ing|absent|unavailable|off)\b/u,
  /not (be )?(in|at) (the |my )?(office|work|desk)|office (is|will be) closed|public holiday/u,
  /automatic(ally generated)? (reply|response|message|notice)|automated (reply|response|message)|auto-?reply/u,
  // de
  /nicht im büro|au(ß|ss)er haus|abwesend|im urlaub|urlaubsbedingt|in elternzeit|im mutterschutz|auf (dienst|geschäfts)reise/u,
  /nicht erreichbar|automatische (antwort|nachricht|benachrichtigung)|abwesenheits(notiz|meldung)/u,
  // fr
  /\babsente?\b|hors du bureau|en (congés?|vacances|déplacement|arrêt maladie)|réponse automatique|message automatique/u,
  // es
  /fuera de la oficina|de vacaciones|\bausente\b|de baja|de viaje|respuesta automática|mensaje automático/u,
  // nl
  /afwezig|niet op kantoor|(met|op) vakantie|met verlof|automatisch (antwoord|bericht)/u,
  // it
  /fuori (ufficio|sede)|in ferie|in vacanza|\bassente\b|in congedo|in trasferta|risposta automatica|messaggio automatico/u,
  // pt
  /fora do escritório|de férias|em viagem|de licença|resposta automática|mensagem automática/u,
);

/** The other clauses of a notice: back on, limited access, answered later, urgent matters to…, thanks for your email. */
const NOTICE = oneOf(
  "iu",
  /\b(back|return(ing)?|until|till|through|upon|after my return)\b|\b(limited|no|intermittent|sporadic|restricted) access\b/u,
  /\b(respond|reply|answer|get back to you|attend to|read)\b.*\b(return|back|possible|soon|asap)\b/u,
  /\b(will|'ll) (respond|reply|answer|get back)/u,
  /\b(e-?mails?|messages?|mail) (will|won't|is|are) (not )?(be )?(forwarded|read|answered|deleted|monitored|checked)/u,
  /\b(urgent\w*|emergenc\w*|immediate (assistance|help|attention)|(in|during) my absence|in the meantime|meanwhile)\b/u,
  /\b(if|should) you (need|require)|thank(s| you)\b/u,
  // de
  /wieder (im büro|erreichbar|da|zurück|für sie da|verfügbar)|zurück am|\bbis\b/u,
  /\bab (dem|montag|dienstag|mittwoch|donnerstag|freitag)\b|rückkehr|eingeschränkt|keinen zugriff|nur (sporadisch|begrenzt)/u,
  /(beantworte|bearbeite|melde)\w*|weitergeleitet|dringend|in eiligen fällen|abwesenheit|zwischenzeit/u,
  /wenden sie sich|kontaktieren sie|vertret(ung|er|erin)|dank\w* für/u,
  // fr
  /de retour|à partir du|jusqu['’]|à mon retour|reviendrai|accès (limité|restreint)|sans accès|répondrai|traiterai/u,
  /urgen(ce|t)|contacter|joindre|votre (e-?mail|message|courriel) ne sera|merci (beaucoup )?(pour|de) votre/u,
  // es
  /de vuelta|regresaré|volveré|de regreso|a mi regreso|hasta el|a partir del|acceso limitado|sin acceso|responderé|contestaré/u,
  /urgen(te|cia)|contacte|contactar|póngase en contacto|gracias por su/u,
  // nl
  /weer (aanwezig|bereikbaar|op kantoor|terug)|terug op|vanaf|tot en met|t\/m|\btot\b|terugkeer|terugkomst|beperkte toegang/u,
  /geen toegang|beantwoord|doorgestuurd|dringende|spoed|contact (met|opnemen)|(bedankt|dank u|dank je)( wel)? voor/u,
  // it
  /rientr\w+|di ritorno|fino al|\bdal\b|accesso limitato|senza accesso|risponderò|urgen(ze|za|te|ti)|contattare|rivolgersi|grazie per/u,
  // pt
  /retornarei|estarei de volta|regressarei|de volta|(?<!\p{L})até(?!\p{L})|a partir de|retorno|regresso|acesso limitado|sem acesso/u,
  /responderei|urgen(te|tes|cia)|entre em contato|contatar|contactar|obrigad[oa] pel[oa]/u,
);

const GREETING = oneOf(
  "iu",
  /^(hi|hello|hey|dear|good (morning|afternoon|day)|greetings|hallo|guten tag|sehr geehrte\w*|liebe\w*|bonjour|madame|monsieur)(?!\p{L})/u,
  /^(hola|buenos días|estimad[oa]s?|beste|geachte|buongiorno|gentile|salve|olá|bom dia|prezad[oa]s?)(?!\p{L})/u,
);

const SIGN_OFF = oneOf(
  "iu",
  /^((best|kind|warm|warmest) )?(regards|wishes)|^best\b|^(many )?thanks|^thank you|^cheers|^sincerely/u,
  /^mit freundlichen grüßen|^(viele|beste|freundliche|herzliche) grüße|^mfg\b|^gruß|^(bien )?cordialement|^salutations/u,
  /^bien à vous|^(un )?saludos?|^atentamente|^(met )?vriendelijke groet|^groet(en|jes)|^(cordiali |distinti )?saluti/u,
  /^atenciosamente|^cumprimentos|^abraços?|^obrigad[oa]/u,
);

/** Words that say nothing by themselves: dates, weekdays, months, small linking words. */
const FILLER_WORD = oneOf(
  "iu",
  /^(\d+(st|nd|rd|th|er|e|º|ª)?|_(date|contact|link)_|and|or|to|from|the|of|at|on|by|tel|phone|mobile|email|e-mail)$/u,
  /^(und|oder|am|zum|zur|vom|et|ou|au|du|le|la|de|del|al|y|o|en|van|op|a|e|do|da|ao|il)$/u,
  /^(mon|tue|wed|thu|fri|sat|sun|jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])/u,
);

/** A person answering: a question, or a phrase no automatic notice contains. */
const ANSWER = oneOf(
  "iu",
  /[?¿]|\binterest(ed|ing)\b|sounds (good|great|interesting|like)|\blet'?s\b|\b(a|quick|short|intro|discovery) call\b|\bdemo\b/u,
  /\b(pricing|price|cost|quote|budget)\b|not for us|no,? thank|\b(yes|yeah|yep|nope)\b/u,
  /(^|[.!\n]\s*)(sure|absolutely|definitely|of course|no)\s*[,.!]/u,
  /\bsend (me|us|over)\b|tell me more|\bwe('re| are)? (already|currently|happy|all set|good)\b/u,
  /\bwe (use|work with|signed|went with|chose)\b/u,
  /unsubscribe|remove (me|us)|take me off|stop (e-?mailing|contacting|sending)|right person|\binstead\b|\bhandles\b|in charge of/u,
  /responsible for|\byour (offer|product|proposal|service|solution|platform|tool|pitch|idea|software|note|email about)/u,
  /happy to (chat|talk|connect|learn|hear|discuss|look)|\bkeen\b|love to|like to (learn|know|see|hear|talk|chat)|ping me/u,
  /circle back|catch up|\bbook\b|schedule (a|some|time|the)|not (right )?now|not at this time|no need|please pass/u,
  /interess|kein(en)? bedarf|klingt|\bja\b|\bnein\b|ihr angebot|\boui\b|non merci|volontiers|votre (offre|produit|solution)/u,
  /no gracias|(?<!\p{L})s[íì](?!\p{L})|me gustaría|su (oferta|producto|propuesta)|geen behoefte|\bnee\b|no grazie|volentieri|\bsim\b/u,
);

/** Text with contact details, links and dates made into placeholder words, and abbreviation dots gone. */
function placeholders(text: string): string {
  const numbers = (m: string) => (/[/.]/.test(m) && m.replace(/\D/g, "").length <= 8 ? " _date_ " : " _contact_ ");
  return text
    .replace(/\b(https?:\/\/|www\.)\S+/giu, " _link_ ")
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/gu, " _contact_ ")
    .replace(/\+?\(?\d[\d\s()/-]{6,}\d/gu, numbers)
    .replace(/\b\d{1,4}([./-])\d{1,2}(\1\d{2,4})?\b\.?/gu, " _date_ ")
    .replace(/(\d)\.(?=\s+\p{L})/gu, "$1")
    .replace(/\b(mr|mrs|ms|dr|hr|fr|mme|sr|sra|dott|sig|prof|tel|e\.g|i\.e|z\.b|bzw|ggf)\./giu, "$1");
}

/** The new text before the sign-off (a "Best regards" line and the signature below it). */
function beforeSignOff(body: string): string {
  const lines = body.split("\n");
  const at = lines.findIndex((l, i) => i > 0 && l.trim().length <= 40 && SIGN_OFF.test(l.trim()) && !/[?]/.test(l));
  return (at > 0 ? lines.slice(0, at) : lines).join("\n");
}

/** "Please contact my colleague Jane Doe at …": a contact verb and someone else to write to (not "call me then"). */
const REFERRAL = /\b(contact|reach|get in touch|write|call|e-?mail|direct)\w*\b/i;
const REFERRED = /_contact_|\b(colleague|team|office|assistant|support|deputy|department)|\s\p{Lu}\p{Ll}+/u;

/** Greetings, names, dates and contact details: clauses a notice may hold besides its sentences. */
function isFiller(clause: string): boolean {
  const words = clause.split(/[\s,'"“”‘’/]+/u).filter(Boolean);
  if (words.length === 0 || words.every((w) => FILLER_WORD.test(w))) return true;
  if (GREETING.test(clause) && words.length <= 5) return true;
  const names = words.filter((w) => !FILLER_WORD.test(w));
  return words.length >= 2 && words.length <= 8 && names.every((w) => /^\p{Lu}/u.test(w));
}

const isNoticeClause = (c: string) => isFiller(c) || AWAY.test(c) || NOTICE.test(c) || (REFERRAL.test(c) && REFERRED.test(c));

/** A notice is a few sentences; a longer text is a person's (and is not scanned clause by clause). */
const NOTICE_MAX_CHARS = 3000;

/** Whether the text alone is an automatic notice: see the rule above. */
export function readsAsNotice(text: string): boolean {
  const before = beforeSignOff(newText(text));
  if (before.length > NOTICE_MAX_CHARS) return false;
  const body = placeholders(before);
  if (ANSWER.test(body)) return false;
  if (RULES.some(([intent, re]) => intent !== "WRONG_PERSON" && re.test(body))) return false;
  const clauses = body.split(/[.!;:\n•|()]+|,\s+|\s[-–—]\s/u).map((c) => c.trim());
  return clauses.some((c) => AWAY.test(c)) && clauses.every(isNoticeClause);
}

/**
 * Automatic replies by three rules: the Auto-Submitted / X-Autoreply / Precedence
 * headers, an automatic-reply subject, or a text that reads as an automatic notice as a whole.
 */
export function isAutomatic(headers: Map<string, unknown> | Record<string, unknown>, subject: string, text: string): boolean {
  const get = (k: string) => String((headers instanceof Map ? headers.get(k) : headers[k]) ?? "").toLowerCase();
  const autoSubmitted = get("auto-submitted");
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (get("x-autoreply") || get("x-autorespond")) return true;
  if (get("precedence") === "auto_reply") return true;
  if (AUTO_SUBJECT.test(subject)) return true;
  return readsAsNotice(text);
}

const RULES: [Intent, RegExp][] = [
  [
    "UNSUBSCRIBE_REQUEST",
    /\b(unsubscribe|remove me|take me off|opt(ed)?[- ]out|stop (e-?mailing|contacting|sending)|do not (e-?mail|contact)|don'?t (e-?mail|contact) me|no more e-?mails)\b/i,
  ],
  [
    "WRONG_PERSON",
    /\b(wrong person|not the (right|correct|best) (person|contact)|no longer (with|at|works? (at|for))|(has|have) left the company|not responsible for|reach out to (my colleague|\w+ instead))\b/i,
  ],
  [
    "NOT_INTERESTED",
    /\b(not interested|no thanks|no,? thank you|not a (good )?fit|we'?re all set|not (right )?now|not at this time|no need|we already (have|use)|please pass)\b/i,
  ],
  [
    "INTERESTED",
    oneOf(
      "i",
      /\b(interested|sounds (good|great|interesting)|let'?s (talk|chat|connect|set up|schedule)|(book|schedule|set up) (a |some )?(call|meeting|demo|time)|happy to (chat|talk|connect))\b/,
      /\b(tell me more|send (me )?(more|details|info)|yes,? please|count me in|i'?d (love|like) to)\b/,
    ),
  ],
];

/**
 * The built-in, deterministic classifier (used when no AI provider is configured, and as the fallback).
 * A person's reply is never OUT_OF_OFFICE; only automatic replies are.
 */
export function classify(input: { automatic: boolean; text: string }): Intent {
  if (input.automatic) return "OUT_OF_OFFICE";
  const body = newText(input.text);
  for (const [intent, re] of RULES) if (re.test(body)) return intent;
  if (/\?/.test(body)) return "QUESTION";
  return "UNCLASSIFIED";
}
