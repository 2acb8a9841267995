/**
 * Referrals: a "wrong person" reply that names who to write to instead — an address ("please reach out
 * to jane.doe@acme.com"), a name after a cue ("our head of sales is Jane Doe", "talk to Jane Doe"), or
 * both ("Jane Doe (jane@acme.com)"). Read from the reply's own text (quoted lines dropped); the
 * sender's and our own addresses are never a referral. English, German, French, Spanish and Dutch cues.
 */

export interface Referral {
  email: string | null;
  name: string | null;
  /** The sentence the referral was read from (≤ 200 characters). */
  text: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** A person's name: two or three capitalised words (with particles such as van, de, von). */
const NAME = String.raw`((?:[A-ZÀ-Þ][a-zß-ÿ'’-]+)(?:\s+(?:(?:van|von|de|der|den|da|di|du|la|le)\s+){0,2}[A-ZÀ-Þ][a-zß-ÿ'’-]+){1,2})`;

/** Phrases after which a person's name or address follows. */
const CUES = [
  String.raw`(?:reach out to|get in touch with|talk to|speak (?:to|with)|contact|write to|email|e-mail|forward (?:this|it) to|connect with|try)`,
  String.raw`(?:the right (?:person|contact)(?: for this)? (?:is|would be)|(?:is|are) handled by|(?:handles|owns|runs) (?:this|that)|in charge (?:of [\w\s]+)?is)`,
  String.raw`(?:our|my|the) (?:head of [\w\s]+?|(?:[\w\s]+? )?(?:manager|director|lead|officer|vp|cto|ceo|cfo|coo|cmo)) is`,
  String.raw`(?:wenden Sie sich (?:bitte )?an|kontaktieren Sie|zuständig ist|Ansprechpartner(?:in)? ist|schreiben Sie an)`,
  String.raw`(?:contactez|adressez-vous à|écrivez à|la bonne personne est|le responsable est|la responsable est)`,
  String.raw`(?:contacte (?:a|con)|escriba a|la persona adecuada es|el responsable es|la responsable es)`,
  String.raw`(?:neem contact op met|mail naar|de juiste persoon is|verantwoordelijk is)`,
];
/** The cues in any case ("Our head of sales is …" opens a sentence); the name after them must be capitalised. */
const CUE = new RegExp(String.raw`(?<![\p{L}])(?:${CUES.join("|")})(?![\p{L}])`, "giu");
const NAME_AFTER_CUE = new RegExp(String.raw`^\s*(?:(?:Mr|Mrs|Ms|Dr|Prof|Herr|Frau|M|Mme|Sr|Sra)\.?\s+)?${NAME}`, "u");

/** The first capitalised name right after a cue in the sentence, if any. */
function cuedName(sentence: string): string | null {
  for (const m of sentence.matchAll(CUE)) {
    const n = NAME_AFTER_CUE.exec(sentence.slice(m.index + m[0].length));
    if (n && !isCueWord(n[1])) return n[1];
  }
  return null;
}
/** A name right before an address: "Jane Doe (jane@acme.com)", "Jane Doe <jane@acme.com>", "Jane Doe at jane@…". */
const NAME_BEFORE_EMAIL = new RegExp(String.raw`${NAME}\s*(?:[(<,:–-]|\bat\b)\s*$`, "u");

/** The reply's own sentences: quoted lines and what follows an "On … wrote:" header left out. */
function ownSentences(text: string): string[] {
  const own: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue;
    if (
      /^(On .+ wrote:|Am .+ schrieb .+:|Le .+ a écrit ?:|El .+ escribió:|Op .+ schreef .+:|-----Original Message-----)/i.test(line.trim())
    )
      break;
    own.push(line);
  }
  return (
    own
      .join("\n")
      // Not after a title's full stop ("Dr. Helen Brooks").
      .split(/(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|Mme|M|Sr|Sra|St)\.)(?<=[.!?])\s+|\n{2,}|\n(?=[A-Z])/)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter(Boolean)
  );
}

/**
 * The person a reply refers us to, or null. `exclude` holds the addresses that are never a referral:
 * the sender's own, the mailbox's, the campaign's other senders.
 */
export function findReferral(text: string, exclude: readonly string[] = []): Referral | null {
  const skip = new Set(exclude.map((e) => e.toLowerCase()));
  for (const sentence of ownSentences(text)) {
    const emails = [...sentence.matchAll(EMAIL)].filter((m) => !skip.has(m[0].toLowerCase()));
    const cued = cuedName(sentence);
    if (emails.length) {
      const m = emails[0];
      const before = NAME_BEFORE_EMAIL.exec(sentence.slice(0, m.index))?.[1];
      const name = before && !isCueWord(before) ? before : cued;
      return { email: m[0].toLowerCase(), name, text: sentence.slice(0, 200) };
    }
    if (cued) return { email: null, name: cued, text: sentence.slice(0, 200) };
  }
  return null;
}

/** Capitalised words that follow a cue but are not a name ("contact Sales Team", "talk to Our CEO"). */
function isCueWord(name: string): boolean {
  return /^(The|Our|My|Your|Sales|Support|Marketing|Team|Him|Her|Them|Us|Please|Thanks|Thank|Best|Regards)\b/.test(name);
}
