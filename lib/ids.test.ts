import { describe, expect, it } from "vitest";
import { idSource, newId } from "./ids";

describe("idSource", () => {
  it("makes ids in newId('lead')'s format, all different, drawing more bytes when the batch needs more than expected", () => {
    const format = new RegExp(`^lead_[0-9a-z]{${newId("lead").length - 5}}$`);
    const next = idSource("lead", 3);
    const ids = Array.from({ length: 500 }, () => next());
    for (const id of ids) expect(id).toMatch(format);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("works for an expected count of zero", () => {
    expect(idSource("lead", 0)()).toMatch(/^lead_[0-9a-z]{20}$/);
  });
});
