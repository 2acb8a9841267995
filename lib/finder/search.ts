import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { finderPeople as p } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { whereOf } from "./filters-sql";
import { FACETS, type FacetName, type FinderFilters, type SearchBody } from "./schemas";

/** POST /finder/search, /count, /facets and GET /finder/people/<id> over the workspace's directory. */

type PersonRecord = Omit<typeof p.$inferSelect, "titleTsv" | "searchTsv">;

/** The fields that leave: the directory person, its known email and verdict. */
export function serializePerson(r: PersonRecord) {
  return {
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    title: r.title,
    seniority: r.seniority,
    department: r.department,
    companyName: r.companyName,
    companyDomain: r.companyDomain,
    industry: r.industry,
    companySize: r.companySize,
    country: r.country,
    city: r.city,
    linkedinUrl: r.linkedinUrl,
    technologies: r.technologies,
    email: r.email,
    verificationStatus: r.verificationStatus,
    espClass: r.espClass,
    createdAt: r.createdAt.toISOString(),
  };
}
export type PersonView = ReturnType<typeof serializePerson>;

/** The selected columns: everything but the two tsvectors (large, and never shown). */
const { titleTsv: _t, searchTsv: _s, ...personColumns } = getTableColumns(p);

export async function countMatching(db: DbOrTx, workspaceId: string, filters: FinderFilters): Promise<number> {
  const [r] = await db.select({ n: count() }).from(p).where(whereOf(workspaceId, filters));
  return r?.n ?? 0;
}

/** Whether any filter narrows the search (an empty filter list, or only empty values, does not). */
const narrows = (f: FinderFilters) => Object.values(f).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v)));

/**
 * One page of matches in import order, and the total. With filters, one pass over the matches gives the
 * page's ids and the total together (`count(*) over ()`), ordered by `seq + 0`: the matches are collected
 * through the filters' own indexes and only they are sorted — the planner cannot walk the
 * (workspace, seq) index and filter row by row, which for a rare combination passes over the whole
 * directory (bench:finder: 250 ms for a filter set matching nobody); the page's rows are then read by
 * primary key. Without filters the page is read along that index, stopping at its last row.
 */
export async function findPeople(db: DbOrTx, workspaceId: string, body: SearchBody) {
  const where = whereOf(workspaceId, body.filters);
  const offset = (body.page - 1) * body.limit;
  if (!narrows(body.filters)) {
    const [rows, total] = await Promise.all([
      db.select(personColumns).from(p).where(where).orderBy(asc(p.seq)).limit(body.limit).offset(offset),
      countMatching(db, workspaceId, body.filters),
    ]);
    return { people: rows.map(serializePerson), total };
  }
  // One pass over the matches gives the page's ids and the total together; the page's rows are then
  // read by primary key.
  const page = await db
    .select({ id: p.id, total: sql<number>`(count(*) over ())::int` })
    .from(p)
    .where(where)
    .orderBy(sql`${p.seq} + 0`)
    .limit(body.limit)
    .offset(offset);
  if (!page.length) return { people: [], total: offset ? await countMatching(db, workspaceId, body.filters) : 0 };
  const rows = await db
    .select(personColumns)
    .from(p)
    .where(
      inArray(
        p.id,
        page.map((r) => r.id),
      ),
    )
    .orderBy(asc(p.seq));
  return { people: rows.map(serializePerson), total: page[0].total };
}

export async function searchPeople(ctx: Ctx, body: SearchBody) {
  requireAccess(ctx, "read");
  const { people, total } = await findPeople(ctx.db, ctx.workspaceId, body);
  return { people, page: body.page, limit: body.limit, total };
}

export async function countPeople(ctx: Ctx, filters: FinderFilters) {
  requireAccess(ctx, "read");
  return { total: await countMatching(ctx.db, ctx.workspaceId, filters) };
}

const FACET_COLUMN: Record<Exclude<FacetName, "technologies">, PgColumn> = {
  seniorities: p.seniority,
  departments: p.department,
  industries: p.industry,
  companySizes: p.companySize,
  countries: p.country,
  domains: p.companyDomain,
};

/** One facet: its values' counts among the matches of every other filter (so picking a value keeps its siblings). */
async function facet(db: DbOrTx, workspaceId: string, filters: FinderFilters, name: FacetName, limit: number) {
  const where = whereOf(workspaceId, filters, name);
  if (name === "technologies") {
    return selectRows<{ value: string; count: number }>(
      db,
      sql`select t as value, count(*)::int as count from ${p} cross join unnest(${p.technologies}) t
          where ${where} group by t order by count(*) desc, t limit ${limit}`,
    );
  }
  const col = FACET_COLUMN[name];
  return db
    .select({ value: sql<string>`${col}`, count: count() })
    .from(p)
    .where(and(where, sql`${col} is not null`))
    .groupBy(col)
    .orderBy(desc(count()), asc(col))
    .limit(limit);
}

export async function facetCounts(ctx: Ctx, body: { filters: FinderFilters; facets?: FacetName[]; limit: number }) {
  requireAccess(ctx, "read");
  const names = body.facets?.length ? [...new Set(body.facets)] : [...FACETS];
  const lists = await Promise.all(names.map((n) => facet(ctx.db, ctx.workspaceId, body.filters, n, body.limit)));
  return { facets: Object.fromEntries(names.map((n, i) => [n, lists[i]])) as Record<FacetName, { value: string; count: number }[]> };
}

export async function getPerson(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const [r] = await ctx.db
    .select(personColumns)
    .from(p)
    .where(and(eq(p.workspaceId, ctx.workspaceId), eq(p.id, id)));
  if (!r) throw new NotFoundError("Person");
  return serializePerson(r);
}
