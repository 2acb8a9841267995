/**
 * `npm run bench:finder`: directory search at 100,000 people.
 *
 *  Data (COPY FROM STDIN into finder_people): one workspace with BENCH_PEOPLE people (default 100,000)
 *  over 5,000 companies — seniority, department, company size, country, industry, a title built from
 *  them, 0–3 technologies — and a second workspace with a tenth as many (same table, same indexes).
 *
 *  Judged: the median latency of POST /finder/search (through the real route handler: API key,
 *  rate limit, zod, the filters' SQL with its count) over a set of typical filters, page 1 of 50;
 *  target < 50 ms. Reported with it: the ratio search ÷ a plain indexed SELECT of the same 50 rows
 *  by primary key (the floor of returning those rows at all), measured in the same run, interleaved.
 *  Each search's total is checked against a plain SQL count of the same condition written by hand.
 *
 * Three runs (BENCH_RUNS), median, spread and load average (bench-util's judge). Starts its own
 * throwaway embedded PostgreSQL; exits 0 either way. Knobs (env): BENCH_PEOPLE, BENCH_ITER (searches
 * per filter set per run, default 15), BENCH_RUNS.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";
import { COMPANY_SIZES, DEPARTMENTS as VOCABULARY_DEPARTMENTS, SENIORITIES } from "../lib/finder/vocabulary";
import {
  benchWorkspace,
  elapsedMs,
  fmt,
  fullApiKey,
  intEnv,
  judge,
  judgedJson,
  median,
  runBench,
  say,
  startBenchEnvironment,
  table,
} from "./bench-util";

const PEOPLE = intEnv("BENCH_PEOPLE", 100_000);
const ITER = intEnv("BENCH_ITER", 15);
const TARGET_MS = 50;

// The directory's own vocabulary (the first ten departments: the common ones), so the data is what an import would hold.
const DEPARTMENTS = VOCABULARY_DEPARTMENTS.slice(0, 10);
const SIZES = COMPANY_SIZES;
const COUNTRIES = [
  "United States",
  "United Kingdom",
  "Germany",
  "France",
  "Canada",
  "Netherlands",
  "Spain",
  "Australia",
  "India",
  "Brazil",
  "Sweden",
  "Italy",
];
const INDUSTRIES = [
  "software",
  "saas",
  "fintech",
  "healthcare",
  "ecommerce",
  "education",
  "insurance",
  "banking",
  "retail",
  "manufacturing",
  "logistics",
  "real estate",
  "cybersecurity",
  "biotech",
  "consulting",
  "media",
  "gaming",
  "automotive",
  "energy",
  "telecommunications",
];
const TECH = [
  "salesforce",
  "hubspot",
  "shopify",
  "aws",
  "azure",
  "gcp",
  "kubernetes",
  "react",
  "stripe",
  "zendesk",
  "intercom",
  "wordpress",
  "snowflake",
  "segment",
  "marketo",
  "pipedrive",
  "slack",
  "jira",
  "docker",
  "postgres",
];
const TITLE_OF: Record<string, string> = {
  vp: "VP of",
  head: "Head of",
  director: "Director of",
  manager: "Manager,",
  senior: "Senior",
  entry: "Associate",
  intern: "Intern,",
};

/** Typical filter sets: what the Finder page sends. */
const FILTER_SETS: Record<string, unknown>[] = [
  { seniorities: ["vp", "director"], departments: ["sales"] },
  { countries: ["UK"], companySizes: ["51-200", "201-500"] },
  { titles: ["sales"], countries: ["United States"] },
  { technologies: ["hubspot"], industries: ["software", "saas"] },
  { departments: ["engineering"], seniorities: ["manager"], countries: ["Germany"] },
  { keywords: "company 42" },
  { industries: ["fintech"], companySizes: ["11-50"], seniorities: ["founder", "c_suite"] },
];

/** A deterministic pseudo-random stream (the data is the same on every machine). */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const COLUMNS = [
  "id",
  "workspace_id",
  "first_name",
  "last_name",
  "title",
  "seniority",
  "department",
  "company_name",
  "company_domain",
  "industry",
  "company_size",
  "country",
  "city",
  "technologies",
];

function personLine(workspaceId: string, i: number, r: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const co = Math.floor(r() * 5000);
  const seniority = pick(SENIORITIES);
  const department = pick(DEPARTMENTS);
  const dept = department.replace("_", " ");
  const title = TITLE_OF[seniority] ? `${TITLE_OF[seniority]} ${dept}` : `${seniority} ${dept}`;
  const tech = [...new Set([pick(TECH), pick(TECH), pick(TECH)].slice(0, Math.floor(r() * 4)))];
  const cells = [
    `fdp_b${workspaceId.slice(-4)}${i}`,
    workspaceId,
    `First${i}`,
    `Last${i}`,
    title,
    seniority,
    department,
    `Company ${co}`,
    `co${co}.example.com`,
    INDUSTRIES[co % INDUSTRIES.length],
    SIZES[co % SIZES.length],
    pick(COUNTRIES),
    "City",
    `{${tech.join(",")}}`,
  ];
  return `${cells.join("\t")}\n`;
}

async function copyPeople(sql: postgres.Sql, workspaceId: string, n: number, seed: number) {
  const r = rng(seed);
  const writable = await sql.unsafe(`copy finder_people (${COLUMNS.join(", ")}) from stdin`).writable();
  async function* chunks() {
    for (let i = 0; i < n; i += 1000) {
      let s = "";
      for (let j = i; j < Math.min(n, i + 1000); j++) s += personLine(workspaceId, j, r);
      yield Buffer.from(s, "utf8");
    }
  }
  await pipeline(Readable.from(chunks()), writable);
}

async function main() {
  const bench = await startBenchEnvironment("bench:finder", { env: { RATE_LIMIT_API_KEY: "1000000000" } });
  try {
    const db = bench.dbm.getDb();
    const ws = await benchWorkspace(db, "finder");
    const other = await benchWorkspace(db, "other", { email: "other@example.com" });
    const key = await fullApiKey(db, ws);
    let t = process.hrtime.bigint();
    await copyPeople(bench.sql, ws.workspaceId, PEOPLE, 1);
    await copyPeople(bench.sql, other.workspaceId, Math.floor(PEOPLE / 10), 2);
    await bench.sql`analyze finder_people`;
    say(`${fmt(PEOPLE)} + ${fmt(Math.floor(PEOPLE / 10))} people copied and analysed in ${fmt(elapsedMs(t))} ms`);

    const { POST } = await import("@/app/api/v1/finder/search/route");
    const { whereOf } = await import("@/lib/finder/filters-sql");
    const { finderFilters } = await import("@/lib/finder/schemas");
    const search = async (filters: Record<string, unknown>) => {
      const res = await POST(
        new Request("http://localhost/api/v1/finder/search", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ filters, limit: 50 }),
        }),
      );
      const body = (await res.json()) as { people: { id: string }[]; total: number };
      if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(body)}`);
      return body;
    };
    const { findPeople } = await import("@/lib/finder/search");
    const direct = (filters: Record<string, unknown>) =>
      findPeople(db, ws.workspaceId, { filters: finderFilters.parse(filters), page: 1, limit: 50 });
    const baseline = (ids: string[]) => bench.sql`select * from finder_people where id = any(${ids})`;

    // Exactness and the rows of each filter set, once.
    const rows: string[][] = [];
    const perSet: { ids: string[]; total: number }[] = [];
    for (const f of FILTER_SETS) {
      const body = await search(f);
      const { count } = await import("drizzle-orm");
      const { finderPeople } = await import("@/db/schema");
      const [c] = await db
        .select({ n: count() })
        .from(finderPeople)
        .where(whereOf(ws.workspaceId, finderFilters.parse(f)));
      if (c.n !== body.total) throw new Error(`total ${body.total} ≠ count ${c.n} for ${JSON.stringify(f)}`);
      perSet.push({ ids: body.people.map((p) => p.id), total: body.total });
    }

    if (process.env.BENCH_EXPLAIN === "1") {
      const { finderPeople } = await import("@/db/schema");
      const { count, sql } = await import("drizzle-orm");
      for (const f of FILTER_SETS) {
        const where = whereOf(ws.workspaceId, finderFilters.parse(f));
        const q = db.select({ n: count() }).from(finderPeople).where(where);
        const plan = (await db.execute(sql`explain (analyze, costs off) ${q.getSQL()}`)) as unknown as Record<string, string>[];
        const q2 = db.select({ id: finderPeople.id }).from(finderPeople).where(where).orderBy(sql`${finderPeople.seq} + 0`).limit(50);
        plan.push(...((await db.execute(sql`explain (analyze, costs off) ${q2.getSQL()}`)) as unknown as Record<string, string>[]));
        say(`${JSON.stringify(f)}\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}\n`);
      }
    }

    const searchMs: number[][] = FILTER_SETS.map(() => []);
    const directMs: number[][] = FILTER_SETS.map(() => []);
    const baseMs: number[][] = FILTER_SETS.map(() => []);
    const judged = await judge("median search latency (ms)", async () => {
      const all: number[] = [];
      for (let k = 0; k < ITER; k++) {
        for (const [i, f] of FILTER_SETS.entries()) {
          t = process.hrtime.bigint();
          await search(f);
          const s = elapsedMs(t);
          t = process.hrtime.bigint();
          await direct(f);
          directMs[i].push(elapsedMs(t));
          t = process.hrtime.bigint();
          await baseline(perSet[i].ids);
          const b = elapsedMs(t);
          searchMs[i].push(s);
          baseMs[i].push(b);
          all.push(s);
        }
      }
      return median(all);
    });

    for (const [i, f] of FILTER_SETS.entries()) {
      const s = median(searchMs[i]);
      const b = median(baseMs[i]);
      rows.push([JSON.stringify(f), fmt(perSet[i].total), fmt(s, 2), fmt(median(directMs[i]), 2), fmt(b, 2), fmt(s / b, 1)]);
    }
    say("");
    say(table(["filters", "matches", "route ms", "lib ms", "indexed SELECT ms", "ratio"], rows));
    const ratio = median(FILTER_SETS.map((_, i) => median(searchMs[i]) / median(baseMs[i])));
    say("");
    const verdict = judged.median < TARGET_MS ? "PASS" : "BELOW TARGET";
    say(
      table(
        ["judged", "median", "spread", "target", "result"],
        [
          [
            judged.name,
            judged.median.toFixed(2),
            `${judged.min.toFixed(2)}–${judged.max.toFixed(2)} (${judged.values.length} runs)`,
            `< ${TARGET_MS}`,
            verdict,
          ],
        ],
      ),
    );
    say(
      `search ÷ indexed SELECT of the same rows: ${ratio.toFixed(1)}× (median over the filter sets); load average at the end ${judged.loadAtEnd}`,
    );
    say(
      JSON.stringify({
        bench: "finder",
        people: PEOPLE,
        searchMs: judgedJson(judged),
        ratioToIndexedSelect: Math.round(ratio * 10) / 10,
        verdict,
      }),
    );
  } finally {
    await bench.close();
  }
}

runBench("bench:finder", main);
