import { importItem, type ImportItem } from "@/lib/mailboxes/schemas";

type FieldKey = keyof ImportItem;

/**
 * The import item fields a CSV column can fill (POST /mailboxes/bulk-import), with the
 * header spellings each one is guessed from (compared lower-cased, letters and digits only).
 */
export const MAILBOX_FIELDS: { key: FieldKey; label: string; required?: boolean; aliases: string[] }[] = [
  {
    key: "email",
    label: "Email",
    required: true,
    aliases: ["email", "emailaddress", "address", "mailbox", "fromemail", "fromaddress", "sender", "senderemail"],
  },
  { key: "senderName", label: "Sender name", aliases: ["sendername", "fromname", "name", "displayname", "fullname"] },
  {
    key: "smtpHost",
    label: "SMTP host",
    required: true,
    aliases: ["smtphost", "smtpserver", "smtp", "outgoingserver", "outgoinghost", "smtphostname"],
  },
  { key: "smtpPort", label: "SMTP port", required: true, aliases: ["smtpport", "outgoingport"] },
  { key: "smtpSecurity", label: "SMTP security", aliases: ["smtpsecurity", "smtpencryption", "smtptls", "smtpssl", "smtpsecure"] },
  { key: "smtpUsername", label: "SMTP username", aliases: ["smtpusername", "smtpuser", "smtplogin", "username", "user", "login"] },
  { key: "smtpPassword", label: "SMTP password", required: true, aliases: ["smtppassword", "smtppass", "password", "pass", "apppassword"] },
  {
    key: "imapHost",
    label: "IMAP host",
    required: true,
    aliases: ["imaphost", "imapserver", "imap", "incomingserver", "incominghost", "imaphostname"],
  },
  { key: "imapPort", label: "IMAP port", required: true, aliases: ["imapport", "incomingport"] },
  { key: "imapSecurity", label: "IMAP security", aliases: ["imapsecurity", "imapencryption", "imaptls", "imapssl", "imapsecure"] },
  { key: "imapUsername", label: "IMAP username", aliases: ["imapusername", "imapuser", "imaplogin"] },
  { key: "imapPassword", label: "IMAP password", aliases: ["imappassword", "imappass"] },
  { key: "dailySendCap", label: "Daily send cap", aliases: ["dailysendcap", "dailylimit", "dailycap", "sendlimit", "perday", "cap"] },
  { key: "signatureHtml", label: "Signature (HTML)", aliases: ["signature", "signaturehtml"] },
  { key: "warmupGroup", label: "Warmup group", aliases: ["warmupgroup", "warmuppool"] },
  { key: "tagIds", label: "Tag ids (separated by ;)", aliases: ["tagids", "tagid"] },
];

/** A column fills one field, or is left out. */
export type MailboxColumnTarget = FieldKey | "ignore";

function normalise(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** A first guess per column: a known header fills its field (each field once, the first column wins). */
export function guessMailboxMapping(headers: string[]): MailboxColumnTarget[] {
  const taken = new Set<FieldKey>();
  return headers.map((h) => {
    const n = normalise(h);
    const f = MAILBOX_FIELDS.find((x) => x.aliases.includes(n) && !taken.has(x.key));
    if (!f) return "ignore";
    taken.add(f.key);
    return f.key;
  });
}

export function mailboxMappingProblems(mapping: MailboxColumnTarget[]): string[] {
  const problems: string[] = [];
  for (const f of MAILBOX_FIELDS) {
    const n = mapping.filter((m) => m === f.key).length;
    if (f.required && n === 0) problems.push(`Map a column to ${f.label}: every mailbox needs it.`);
    if (n > 1) problems.push(`${f.label} is mapped from more than one column.`);
  }
  return problems;
}

/** "SSL/TLS", "tls", "starttls", "none"… as the API's SSL | STARTTLS | NONE. */
function security(value: string): "SSL" | "STARTTLS" | "NONE" | undefined {
  const v = normalise(value);
  if (["ssl", "tls", "ssltls", "implicittls", "implicit", "secure", "true", "yes"].includes(v)) return "SSL";
  if (["starttls", "explicittls"].includes(v)) return "STARTTLS";
  if (["none", "plain", "no", "false", "off", "unencrypted"].includes(v)) return "NONE";
  return undefined;
}

const NUMERIC = new Set<FieldKey>(["smtpPort", "imapPort", "dailySendCap"]);

export type RowResult = { ok: true; item: ImportItem } | { ok: false; email: string; error: string };

/**
 * One CSV row as an import item, checked with the API's own schema so a bad row is reported on its own
 * line instead of failing its whole batch. Empty cells are left out: the API's defaults apply.
 */
export function rowToMailbox(row: Record<string, string>, headers: string[], mapping: MailboxColumnTarget[]): RowResult {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  headers.forEach((h, i) => {
    const key = mapping[i];
    const value = (row[h] ?? "").trim();
    if (key === "ignore" || !value) return;
    if (NUMERIC.has(key)) {
      const n = Number(value);
      if (!Number.isInteger(n)) problems.push(`${h}: "${value}" is not a whole number`);
      else raw[key] = n;
    } else if (key === "smtpSecurity" || key === "imapSecurity") {
      const s = security(value);
      if (!s) problems.push(`${h}: "${value}" is not SSL, STARTTLS or NONE`);
      else raw[key] = s;
    } else if (key === "tagIds") {
      raw[key] = value.split(/[;|\s]+/).filter(Boolean);
    } else {
      // Trimmed, passwords too: "a, b" style CSVs put a space before every cell.
      raw[key] = value;
    }
  });
  const email = typeof raw.email === "string" ? raw.email : "";
  if (problems.length) return { ok: false, email, error: problems.join("; ") };
  const parsed = importItem.safeParse(raw);
  if (!parsed.success) {
    const label = (path: PropertyKey[]) => MAILBOX_FIELDS.find((f) => f.key === path[0])?.label ?? String(path[0] ?? "row");
    return { ok: false, email, error: parsed.error.issues.map((i) => `${label(i.path)}: ${i.message}`).join("; ") };
  }
  return { ok: true, item: parsed.data };
}
