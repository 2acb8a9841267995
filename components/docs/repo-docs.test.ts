import { describe, expect, it } from "vitest";
import { docNames, linkDocsInMarkdown, renderDoc } from "./repo-docs";

const names = new Set(["teams", "api"]);

describe("links to the guides in the API reference's descriptions", () => {
  it("makes each mention of an existing guide a link to its page, in text and in inline code", () => {
    expect(linkDocsInMarkdown("A dotted name (docs/teams.md lists them)", names)).toBe(
      "A dotted name ([docs/teams.md](/docs/guides/teams) lists them)",
    );
    expect(linkDocsInMarkdown("see `docs/api.md` first", names)).toBe("see [`docs/api.md`](/docs/guides/api) first");
  });

  it("leaves a guide that does not exist, an existing link and a longer path as they are", () => {
    expect(linkDocsInMarkdown("(docs/nowhere.md)", names)).toBe("(docs/nowhere.md)");
    expect(linkDocsInMarkdown("[docs/teams.md](docs/teams.md)", names)).toBe("[docs/teams.md](docs/teams.md)");
    expect(linkDocsInMarkdown("other/docs/teams.md", names)).toBe("other/docs/teams.md");
  });
});

describe("the guides served at /docs/<name>", () => {
  it("lists the repository's docs and renders one with its title and its tables", () => {
    const all = docNames();
    expect(all.has("teams")).toBe(true);
    const doc = renderDoc("onboarding", new Set([...all, "onboarding"]));
    expect(doc?.title).toBe("Onboarding checklist");
    expect(doc?.html).toContain("<table>");
  });

  it("points a guide's relative links to sibling guides at their pages here", () => {
    const api = renderDoc("api");
    expect(api?.html).toContain('href="/docs/guides/teams"');
    expect(api?.html).toContain('href="/docs/guides/architecture#leads-esp-class"');
    expect(api?.html).not.toMatch(/href="[^"]*\.md/);
  });

  it("answers null for a name that is not a guide, or that tries to leave the folder", () => {
    expect(renderDoc("no-such-guide")).toBeNull();
    expect(renderDoc("../README")).toBeNull();
    expect(renderDoc("Teams")).toBeNull();
  });
});
