import Papa from "papaparse";
import { sql } from "drizzle-orm";
import { bulkInsert, bulkUpdate } from "../../db/bulk";
import { finderPeople } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ValidationError } from "../errors";
import { idSource } from "../ids";
import { existingByKey, identityKeys, mergePerson, type PersonUpdate } from "./directory-match";
import { checkPerson, type PersonRow } from "./person-row";
import { MAX_IMPORT } from "./schemas";

/**
 * POST /finder/directory/import: people as JSON (`people`) or CSV text (`csv`, a header row naming the
 * fields) join the workspace's directory. Every row is checked on its own; the bad ones are reported
 * with their row number (1-based, data rows: the CSV header is not counted) and every reason. A good
 * row that is someone already in the directory (directory-match.ts: the LinkedIn URL, else the email,
 * else name and company domain) — or someone an earlier row of the same import added — updates that
 * person with its non-empty values; any other adds a person. All in one transaction, set-based.
 */

export interface ImportResult {
  /** People added. */
  imported: number;
  /** Rows that updated someone already in the directory or added earlier in the same import. */
  updated: number;
  rejected: { row: number; reasons: string[] }[];
  /** The people of the accepted rows (added or updated), each once, in the order of their first row. */
  personIds: string[];
}

const FIELDS = [
  "firstName",
  "lastName",
  "title",
  "seniority",
  "department",
  "companyName",
  "companyDomain",
  "industry",
  "companySize",
  "country",
  "city",
  "linkedinUrl",
  "email",
  "technologies",
] as const;
const ALIASES: Record<string, string> = {
  jobtitle: "title",
  company: "companyName",
  domain: "companyDomain",
  website: "companyDomain",
  linkedin: "linkedinUrl",
};

/** A CSV header as a field name, whatever its case, spaces or underscores ("First Name", "first_name"). */
function fieldOf(header: string): string | undefined {
  const key = header.toLowerCase().replace(/[\s_-]+/g, "");
  return FIELDS.find((f) => f.toLowerCase() === key) ?? ALIASES[key];
}

/** CSV text → one object per data row, keyed by field name (unknown columns are ignored). */
export function peopleFromCsv(csv: string): Record<string, string>[] {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  const fields = (header ?? []).map(fieldOf);
  if (!fields.some((f) => f === "firstName" || f === "lastName" || f === "linkedinUrl")) {
    throw ValidationError.field("csv", "the header row must name firstName, lastName or linkedinUrl (and any of the other fields)");
  }
  if (rows.length > MAX_IMPORT) throw ValidationError.field("csv", `at most ${MAX_IMPORT.toLocaleString("en")} rows per import`);
  return rows.map((cells) => {
    const o: Record<string, string> = {};
    fields.forEach((f, i) => {
      if (f && cells[i] !== undefined) o[f] = cells[i];
    });
    return o;
  });
}

/** Whether a record names its company domain itself (rather than leaving it to its email's). */
function namesDomain(record: unknown): boolean {
  const d = typeof record === "object" && record !== null ? (record as { companyDomain?: unknown }).companyDomain : undefined;
  return typeof d === "string" && d.trim() !== "";
}

type Stored = PersonUpdate;

export async function importDirectory(ctx: Ctx, body: { people?: unknown[]; csv?: string }): Promise<ImportResult> {
  requireAccess(ctx, "write");
  const records = body.csv !== undefined ? peopleFromCsv(body.csv) : (body.people ?? []);
  const good: { row: PersonRow; namesDomain: boolean }[] = [];
  const rejected: ImportResult["rejected"] = [];
  records.forEach((r, i) => {
    const c = checkPerson(r);
    if (c.row) good.push({ row: c.row, namesDomain: namesDomain(r) });
    else rejected.push({ row: i + 1, reasons: c.reasons });
  });
  return withTransaction(ctx, async (tx) => {
    // One import at a time per workspace: two at once would both add the same new person.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`finder-import:${ctx.workspaceId}`}))`);
    const existing = await existingByKey(
      tx,
      ctx.workspaceId,
      good.map((g) => g.row),
    );
    const nextId = idSource("fdp", good.length);
    const inserts = new Map<string, Stored>();
    const updates = new Map<string, Stored>();
    const known = new Map<string, Stored>([...existing.values()].map((e) => [e.id, e]));
    const byKey = new Map<string, string>([...existing].map(([k, e]) => [k, e.id]));
    const personIds = new Set<string>();
    let updated = 0;
    for (const g of good) {
      const id = identityKeys(g.row)
        .map((k) => byKey.get(k))
        .find(Boolean);
      let person: Stored;
      if (id) {
        updated++;
        person = mergePerson(inserts.get(id) ?? updates.get(id) ?? (known.get(id) as Stored), g.row, g.namesDomain);
        (inserts.has(id) ? inserts : updates).set(id, person);
      } else {
        person = { id: nextId(), ...g.row, verificationStatus: "UNVERIFIED", espClass: "UNKNOWN" };
        inserts.set(person.id, person);
      }
      personIds.add(person.id);
      for (const k of identityKeys(person)) if (!byKey.has(k)) byKey.set(k, person.id);
    }
    const rows = [...inserts.values()].map((r) => ({ ...r, workspaceId: ctx.workspaceId }));
    for (let i = 0; i < rows.length; i += 5000) await bulkInsert(tx, finderPeople, rows.slice(i, i + 5000));
    const changed = [...updates.values()];
    for (let i = 0; i < changed.length; i += 5000) await bulkUpdate(tx, finderPeople, "id", changed.slice(i, i + 5000));
    return { imported: inserts.size, updated, rejected, personIds: [...personIds] };
  });
}
