import Papa from "papaparse";
import { bulkInsert } from "../../db/bulk";
import { finderPeople } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ValidationError } from "../errors";
import { idSource } from "../ids";
import { checkPerson, type PersonRow } from "./person-row";
import { MAX_IMPORT } from "./schemas";

/**
 * POST /finder/directory/import (decisions.md "Lead finder"): people as JSON (`people`) or CSV text
 * (`csv`, a header row naming the fields) join the workspace's directory. Every row is checked on its
 * own: the valid ones are inserted in one set-based statement, the others are reported with their row
 * number (1-based, data rows: the CSV header is not counted) and every reason. Each import adds rows;
 * nothing is merged.
 */

export interface ImportResult {
  imported: number;
  rejected: { row: number; reasons: string[] }[];
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

export async function importDirectory(ctx: Ctx, body: { people?: unknown[]; csv?: string }): Promise<ImportResult> {
  requireAccess(ctx, "write");
  const records = body.csv !== undefined ? peopleFromCsv(body.csv) : (body.people ?? []);
  const good: PersonRow[] = [];
  const rejected: ImportResult["rejected"] = [];
  records.forEach((r, i) => {
    const c = checkPerson(r);
    if (c.row) good.push(c.row);
    else rejected.push({ row: i + 1, reasons: c.reasons });
  });
  const nextId = idSource("fdp", good.length);
  const rows = good.map((p) => ({ id: nextId(), workspaceId: ctx.workspaceId, ...p }));
  await withTransaction(ctx, async (tx) => {
    for (let i = 0; i < rows.length; i += 5000) await bulkInsert(tx, finderPeople, rows.slice(i, i + 5000));
  });
  return { imported: rows.length, rejected, personIds: rows.map((r) => r.id) };
}
