import { afterEach, describe, expect, it } from "vitest";
import { defaultPoolMax, poolMax } from "./client";

describe("connections per process", () => {
  const saved = process.env.DB_POOL_MAX;
  afterEach(() => {
    if (saved === undefined) delete process.env.DB_POOL_MAX;
    else process.env.DB_POOL_MAX = saved;
  });

  it("defaults to one more than the machine's cores, at least 3 and at most 10", () => {
    expect([1, 2, 3, 4, 8, 9, 16, 64].map((cores) => defaultPoolMax(cores))).toEqual([3, 3, 4, 5, 9, 10, 10, 10]);
  });

  it("takes DB_POOL_MAX when it is a whole number of at least 1, and the default otherwise", () => {
    process.env.DB_POOL_MAX = "25";
    expect(poolMax()).toBe(25);
    process.env.DB_POOL_MAX = "1";
    expect(poolMax()).toBe(1);
    for (const bad of ["", "0", "-2", "2.5", "many"]) {
      process.env.DB_POOL_MAX = bad;
      expect(poolMax()).toBe(defaultPoolMax());
    }
    delete process.env.DB_POOL_MAX;
    expect(poolMax()).toBe(defaultPoolMax());
  });
});
