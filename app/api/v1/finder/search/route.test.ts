import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as IMPORT } from "../directory/import/route";
import { POST as COUNT } from "../count/route";
import { POST as FACETS } from "../facets/route";
import { GET as META } from "../meta/route";
import { GET as PERSON } from "../people/[id]/route";
import { GET as PROVIDERS } from "../providers/route";
import { GET as ACCESS } from "../access/route";
import { POST as SEARCH } from "./route";

/**
 * The directory provider (see docs/finder.md): import as JSON and CSV with per-row
 * rejections, search with AND across filters and OR within one, count, facets, one person, scopes.
 */
let ws: TestWorkspace;
let other: TestWorkspace;
const ids: Record<string, string> = {};

const people = [
  {
    firstName: "Ada",
    lastName: "Lovelace",
    title: "VP of Sales",
    seniority: "VP",
    department: "sales",
    companyName: "Acme",
    companyDomain: "https://www.Acme.test/about",
    industry: "Software",
    companySize: 120,
    country: "UK",
    technologies: ["Salesforce", "HubSpot"],
  },
  {
    firstName: "Grace",
    lastName: "Hopper",
    title: "Software Engineering Manager",
    seniority: "manager",
    department: "engineering",
    companyName: "Navy Systems",
    companyDomain: "navy.test",
    industry: "software",
    companySize: "1001-5000",
    country: "United States",
    technologies: "aws; kubernetes",
  },
  {
    firstName: "Alan",
    lastName: "Turing",
    title: "Head of Sales",
    seniority: "head",
    department: "sales",
    companyName: "Bletchley",
    companyDomain: "bletchley.test",
    industry: "Defense",
    companySize: "11-50",
    country: "gb",
    technologies: ["hubspot"],
  },
  {
    firstName: "Linus",
    lastName: "T",
    title: "Sales Engineer",
    seniority: "senior",
    department: "engineering",
    companyName: "Acme",
    companyDomain: "acme.test",
    industry: "software",
    companySize: "51 - 200",
    country: "Finland",
  },
];

const search = (body: unknown, key = ws.fullKey) => call(SEARCH, "POST", "/finder/search", { key, body });
const names = (r: { body: { people: { firstName: string }[] } }) => r.body.people.map((p) => p.firstName);

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
  expect(r.status).toBe(200);
  r.body.personIds.forEach((id: string, i: number) => {
    ids[people[i].firstName] = id;
  });
});

describe("POST /finder/directory/import", () => {
  it("normalises the filter fields: vocabulary, lower-case industry and technologies, domain from a URL, country aliases, size bands", async () => {
    const r = await call(PERSON, "GET", "", { key: ws.readKey, params: { id: ids.Ada } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      seniority: "vp",
      companyDomain: "acme.test",
      industry: "software",
      companySize: "51-200",
      country: "United Kingdom",
      technologies: ["salesforce", "hubspot"],
    });
    const g = await call(PERSON, "GET", "", { key: ws.readKey, params: { id: ids.Grace } });
    expect(g.body.technologies).toEqual(["aws", "kubernetes"]);
  });

  it("imports CSV with loose headers and reports each bad row with every reason, inserting the good ones", async () => {
    const csv = [
      "First Name,last_name,Title,Seniority,Company Domain,Company Size,Country,Technologies",
      "Margaret,Hamilton,Director of Engineering,director,mit.test,5000,US,fortran;assembly",
      ",,,,,,,",
      "Bob,Builder,CTO,wizard,not a domain,huge,France,",
      '"Katherine ""Kat""",Johnson,Analyst,entry,nasa.test,10,us,',
    ].join("\n");
    const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { csv } });
    expect(r.status).toBe(200);
    expect(r.body.imported).toBe(2);
    expect(r.body.rejected).toEqual([
      { row: 2, reasons: ["a person needs firstName, lastName or linkedinUrl"] },
      {
        row: 3,
        reasons: [
          expect.stringContaining('companyDomain "not a domain"'),
          expect.stringContaining('seniority "wizard"'),
          expect.stringContaining('companySize "huge"'),
        ],
      },
    ]);
    const found = await search({ filters: { domains: ["nasa.test"] } });
    expect(found.body.people[0]).toMatchObject({ firstName: 'Katherine "Kat"', country: "United States", companySize: "1-10" });
  });

  it("refuses a body with neither or both of people and csv, and a CSV without a name column (400)", async () => {
    for (const body of [{}, { people: [], csv: "a" }, { csv: "title,company\nCEO,X" }]) {
      const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("needs a full-access key", async () => {
    const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.readKey, body: { people } });
    expect(r.status).toBe(403);
  });
});

describe("POST /finder/search, /count and /facets", () => {
  it("ORs values within a filter and ANDs filters", async () => {
    expect(names(await search({ filters: { seniorities: ["vp", "head"] } }))).toEqual(["Ada", "Alan"]);
    expect(names(await search({ filters: { departments: ["sales"], countries: ["United Kingdom"] } }))).toEqual(["Ada", "Alan"]);
    expect(names(await search({ filters: { departments: ["sales"], industries: ["SOFTWARE"] } }))).toEqual(["Ada"]);
    expect(names(await search({ filters: { technologies: ["HubSpot", "aws"], companySizes: ["51-200", "11-50"] } }))).toEqual([
      "Ada",
      "Alan",
    ]);
    expect(names(await search({ filters: { domains: ["ACME.test"], countries: ["fi"] } }))).toEqual(["Linus"]);
  });

  it("matches titles by every word's prefix in any case, and keywords over name, title and company", async () => {
    expect(names(await search({ filters: { titles: ["vp sales"] } }))).toEqual(["Ada"]);
    expect(names(await search({ filters: { titles: ["ENGINEER"] } }))).toEqual(["Grace", "Linus", "Margaret"]);
    expect(names(await search({ filters: { titles: ["head of sales", "cto"] } }))).toEqual(["Alan"]);
    expect(names(await search({ filters: { keywords: "navy" } }))).toEqual(["Grace"]);
    expect(names(await search({ filters: { keywords: "ada acme" } }))).toEqual(["Ada"]);
    expect(names(await search({ filters: { titles: ["--"] } }))).toEqual([]);
  });

  it("pages in import order with the total, and counts the same matches", async () => {
    const r = await search({ filters: {}, page: 2, limit: 2 });
    expect(r.body).toMatchObject({ page: 2, limit: 2, total: 6 });
    expect(names(r)).toEqual(["Alan", "Linus"]);
    const filtered = await search({ filters: { departments: ["engineering"] }, page: 2, limit: 1 });
    expect(filtered.body).toMatchObject({ page: 2, limit: 1, total: 2 });
    expect(names(filtered)).toEqual(["Linus"]);
    const beyond = await search({ filters: { departments: ["engineering"] }, page: 5, limit: 1 });
    expect(beyond.body).toMatchObject({ people: [], total: 2 });
    expect((await search({ filters: { departments: ["legal"] } })).body).toMatchObject({ people: [], total: 0 });
    const c = await call(COUNT, "POST", "/finder/count", { key: ws.fullKey, body: { filters: { departments: ["engineering"] } } });
    expect(c.body).toEqual({ total: 2 });
  });

  it("counts each facet's values among the matches of the other filters", async () => {
    const r = await call(FACETS, "POST", "/finder/facets", {
      key: ws.fullKey,
      body: { filters: { departments: ["sales"], countries: ["United Kingdom"] }, facets: ["departments", "countries", "technologies"] },
    });
    expect(r.status).toBe(200);
    expect(r.body.facets.departments).toEqual([{ value: "sales", count: 2 }]);
    expect(r.body.facets.countries).toEqual([{ value: "United Kingdom", count: 2 }]);
    expect(r.body.facets.technologies).toEqual([
      { value: "hubspot", count: 2 },
      { value: "salesforce", count: 1 },
    ]);
    const all = await call(FACETS, "POST", "/finder/facets", { key: ws.fullKey, body: { filters: { seniorities: ["vp"] } } });
    expect(all.body.facets.seniorities.map((f: { value: string }) => f.value)).toContain("manager");
    expect(Object.keys(all.body.facets).sort()).toEqual([
      "companySizes",
      "countries",
      "departments",
      "domains",
      "industries",
      "seniorities",
      "technologies",
    ]);
  });

  it("refuses unknown filters, values outside the vocabulary and limits over 200 (400 VALIDATION_ERROR)", async () => {
    for (const body of [{ filters: { colour: ["red"] } }, { filters: { seniorities: ["boss"] } }, { limit: 201 }, { page: 0 }]) {
      const r = await search(body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("keeps workspaces apart: another workspace sees nothing and gets 404 for a person", async () => {
    expect((await search({}, other.fullKey)).body.total).toBe(0);
    const r = await call(PERSON, "GET", "", { key: other.readKey, params: { id: ids.Ada } });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("NOT_FOUND");
  });

  it("answers search to a full-access key only (F), the GET routes to a read key (R)", async () => {
    expect((await search({}, ws.readKey)).status).toBe(403);
    expect((await call(COUNT, "POST", "/finder/count", { key: ws.readKey, body: {} })).status).toBe(403);
    expect((await call(META, "GET", "/finder/meta", { key: ws.readKey })).status).toBe(200);
  });
});

describe("GET /finder/meta, /providers, /access", () => {
  it("lists every filter with the fixed vocabularies", async () => {
    const r = await call(META, "GET", "/finder/meta", { key: ws.readKey });
    const byName = Object.fromEntries(r.body.filters.map((f: { name: string }) => [f.name, f]));
    expect(Object.keys(byName)).toEqual([
      "titles",
      "seniorities",
      "departments",
      "industries",
      "companySizes",
      "countries",
      "domains",
      "technologies",
      "keywords",
    ]);
    expect(byName.companySizes.values).toEqual(["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"]);
    expect(byName.seniorities.values).toContain("c_suite");
  });

  it("lists the directory as configured and a paid provider only once its API key is set", async () => {
    delete process.env.HUNTER_API_KEY;
    expect((await call(PROVIDERS, "GET", "/finder/providers", { key: ws.readKey })).body).toEqual([
      { name: "directory", kind: "directory", configured: true },
      { name: "hunter", kind: "enrichment", configured: false },
    ]);
    process.env.HUNTER_API_KEY = "k";
    try {
      const a = await call(ACCESS, "GET", "/finder/access", { key: ws.readKey });
      expect(a.body).toMatchObject({
        enabled: true,
        providers: ["directory", "hunter"],
        credits: { limit: 1000, used: 0, remaining: 1000 },
      });
    } finally {
      delete process.env.HUNTER_API_KEY;
    }
  });
});
