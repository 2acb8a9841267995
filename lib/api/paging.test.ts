import { describe, expect, it } from "vitest";
import { envelope, pageQuery } from "../paging";
import { plainPage } from "./paging";

describe("pagination helpers", () => {
  it("parses page and limit with defaults, and refuses limit above the maximum or page below 1", () => {
    const q = pageQuery({ defaultLimit: 500, maxLimit: 500 });
    expect(q.parse({})).toEqual({ page: 1, limit: 500 });
    expect(q.parse({ page: "3", limit: "20" })).toEqual({ page: 3, limit: 20 });
    expect(q.safeParse({ limit: "501" }).success).toBe(false);
    expect(q.safeParse({ page: "0" }).success).toBe(false);
    expect(q.safeParse({ page: "1.5" }).success).toBe(false);
  });

  it("builds the envelope form and the plain-array form with X-Total-Count/X-Page/X-Limit", async () => {
    expect(envelope("leads", [1, 2], 7, { page: 2, limit: 2 })).toEqual({ leads: [1, 2], page: 2, limit: 2, total: 7 });
    const res = plainPage([{ id: "a" }], 9, { page: 3, limit: 1 });
    expect(await res.json()).toEqual([{ id: "a" }]);
    expect([res.headers.get("X-Total-Count"), res.headers.get("X-Page"), res.headers.get("X-Limit")]).toEqual(["9", "3", "1"]);
  });
});
