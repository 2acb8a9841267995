import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { finderPeople } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as SEARCH } from "../../search/route";
import { GET as PERSON } from "../../people/[id]/route";
import { POST as IMPORT } from "./route";

/**
 * POST /finder/directory/import: a row that is someone already in the directory updates them
 * (LinkedIn URL, else email, else name and company domain); counts and per-row reasons come back.
 */
let ws: TestWorkspace;
const importPeople = (people: unknown[], key = ws.fullKey) => call(IMPORT, "POST", "/finder/directory/import", { key, body: { people } });
const person = async (id: string) => (await call(PERSON, "GET", "", { key: ws.readKey, params: { id } })).body;
const everyone = async () => (await call(SEARCH, "POST", "/finder/search", { key: ws.fullKey, body: { limit: 200 } })).body;

beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("POST /finder/directory/import: updates instead of duplicates", () => {
  it("imports new people, then updates them when the same rows come again: blank cells keep what is stored", async () => {
    const first = await importPeople([
      { firstName: "Ada", lastName: "Lovelace", title: "CTO", companyDomain: "engine.test", city: "London", industry: "E-Commerce" },
      { firstName: "Alan", lastName: "Turing", linkedinUrl: "https://www.linkedin.com/in/alan-turing/", country: "UK" },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ imported: 2, updated: 0, rejected: [] });
    const [ada, alan] = first.body.personIds;

    const again = await importPeople([
      { firstName: "ADA", lastName: "lovelace", title: "Chief Technology Officer", companyDomain: "Engine.test", city: "" },
      { firstName: "Alan M.", lastName: "Turing", linkedinUrl: "https://uk.linkedin.com/in/Alan-Turing?trk=profile", country: "" },
      { firstName: "Alan", lastName: "Turing", companyDomain: "other.test" },
    ]);
    expect(again.body).toMatchObject({ imported: 1, updated: 2, rejected: [] });
    expect(again.body.personIds.slice(0, 2)).toEqual([ada, alan]);
    expect(await person(ada)).toMatchObject({ firstName: "ADA", title: "Chief Technology Officer", city: "London", industry: "ecommerce" });
    expect(await person(alan)).toMatchObject({ firstName: "Alan M.", country: "United Kingdom" });
    expect((await everyone()).total).toBe(3);
  });

  it("matches by email; a new email is unverified again, the same one keeps its verdict; a domain taken from the email does not replace the stored one", async () => {
    const r = await importPeople([{ firstName: "Grace", lastName: "Hopper", email: "Grace@Navy.test", companyDomain: "navy-corp.test" }]);
    const [grace] = r.body.personIds;
    await getDb()
      .update(finderPeople)
      .set({ verificationStatus: "VALID", espClass: "GOOGLE" })
      .where(and(eq(finderPeople.id, grace), eq(finderPeople.workspaceId, ws.workspaceId)));

    const same = await importPeople([{ email: "grace@navy.test", title: "Rear Admiral", lastName: "Hopper" }]);
    expect(same.body).toMatchObject({ imported: 0, updated: 1, personIds: [grace] });
    expect(await person(grace)).toMatchObject({
      title: "Rear Admiral",
      companyDomain: "navy-corp.test",
      verificationStatus: "VALID",
      espClass: "GOOGLE",
    });

    const moved = await importPeople([
      { firstName: "Grace", lastName: "Hopper", companyDomain: "navy-corp.test", email: "ghopper@navy-corp.test" },
    ]);
    expect(moved.body).toMatchObject({ imported: 0, updated: 1, personIds: [grace] });
    expect(await person(grace)).toMatchObject({ email: "ghopper@navy-corp.test", verificationStatus: "UNVERIFIED", espClass: "UNKNOWN" });
  });

  it("merges a person repeated within one import, and still reports the bad rows with their reasons", async () => {
    const r = await importPeople([
      { firstName: "Linus", lastName: "Torvalds", companyDomain: "kernel.test", title: "Maintainer" },
      { lastName: "Nobody", companySize: "huge" },
      { firstName: "linus", lastName: "TORVALDS", companyDomain: "kernel.test", city: "Portland" },
      { title: "no name at all" },
    ]);
    expect(r.body.imported).toBe(1);
    expect(r.body.updated).toBe(1);
    expect(r.body.personIds).toHaveLength(1);
    expect(r.body.rejected).toEqual([
      { row: 2, reasons: [expect.stringContaining('companySize "huge"')] },
      { row: 4, reasons: ["a person needs firstName, lastName or linkedinUrl"] },
    ]);
    expect(await person(r.body.personIds[0])).toMatchObject({ firstName: "linus", title: "Maintainer", city: "Portland" });
  });

  it("adds someone without an identity (no LinkedIn URL, email or domain) every time", async () => {
    const before = (await everyone()).total;
    await importPeople([{ firstName: "Anon" }]);
    const r = await importPeople([{ firstName: "Anon" }]);
    expect(r.body).toMatchObject({ imported: 1, updated: 0 });
    expect((await everyone()).total).toBe(before + 2);
  });

  it("two imports of the same new person at once add one person", async () => {
    const row = { firstName: "Barbara", lastName: "Liskov", companyDomain: "mit-csail.test" };
    const [a, b] = await Promise.all([importPeople([row]), importPeople([row])]);
    expect([a.body.imported, b.body.imported].sort()).toEqual([0, 1]);
    expect(a.body.personIds).toEqual(b.body.personIds);
  });

  it("takes CSV with the same matching, and needs a full-access key", async () => {
    const csv = "First Name,Last Name,Company Domain,Title\nAda,Lovelace,engine.test,Countess\nKatherine,Johnson,nasa.test,Mathematician\n";
    const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { csv } });
    expect(r.body).toMatchObject({ imported: 1, updated: 1, rejected: [] });
    expect((await importPeople([{ firstName: "X" }], ws.readKey)).status).toBe(403);
  });
});
