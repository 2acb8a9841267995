import { describe, expect, it } from "vitest";
import { cycleSize, type DueMailbox, MIN_PER_CYCLE, otherFoldersDue, rotation } from "./rotation";

const m = (id: string, lastReadAt: number | null, o: Partial<DueMailbox> = {}): DueMailbox => ({
  id,
  lastReadAt,
  failing: false,
  kept: false,
  ...o,
});

describe("cycleSize", () => {
  it.each([
    [0, 60_000, 5_000, MIN_PER_CYCLE],
    [26, 60_000, 5_000, MIN_PER_CYCLE],
    [300, 60_000, 5_000, 50],
    [2_000, 5_000, 5_000, 4_000],
    [2_000, 60_000, 5_000, 334],
  ])("%i mailboxes, poll %i ms, a cycle every %i ms: %i", (n, poll, every, want) => {
    expect(cycleSize(n, poll, every)).toBe(want);
  });
});

describe("rotation", () => {
  it.each([
    {
      name: "healthy before failing, never read first, then least recently read, ties by id",
      due: [m("c", 30), m("f", null, { failing: true }), m("b", 10), m("a", null), m("d", 10)],
      opts: { kept: 0, cap: 100, inFlight: 2 },
      want: ["a+", "b+", "d+", "c+", "f+"],
    },
    {
      name: "under the cap minus the reserve, new mailboxes keep their connection; beyond it they rotate",
      due: [m("a", 1), m("b", 2), m("c", 3), m("d", 4)],
      opts: { kept: 0, cap: 4, inFlight: 2 },
      want: ["a+", "b+", "c-", "d-"],
    },
    {
      name: "a mailbox holding a connection keeps it and uses no free slot",
      due: [m("a", 1), m("b", 2, { kept: true }), m("c", 3)],
      opts: { kept: 1, cap: 3, inFlight: 1 },
      want: ["a+", "b+", "c-"],
    },
    {
      name: "a worker at its cap keeps no new connection",
      due: [m("a", null), m("b", 5, { kept: true })],
      opts: { kept: 8, cap: 10, inFlight: 2 },
      want: ["a-", "b+"],
    },
    {
      name: "a cap no larger than the reads in flight: everyone rotates",
      due: [m("a", 1), m("b", 2)],
      opts: { kept: 0, cap: 2, inFlight: 4 },
      want: ["a-", "b-"],
    },
  ])("$name", ({ due, opts, want }) => {
    expect(rotation(due, opts).map((x) => `${x.id}${x.keep ? "+" : "-"}`)).toEqual(want);
  });

  it("reads every mailbox once per pass however few connections the worker may keep", () => {
    // 10 mailboxes, a cap of 4 with 2 reserved: over three passes each is read three times, least recently read first.
    const last = new Map<string, number>();
    const kept = new Set<string>();
    const reads: string[] = [];
    for (let t = 1; t <= 30; t += 10) {
      const due = [..."abcdefghij"].map((id) => m(id, last.get(id) ?? null, { kept: kept.has(id) }));
      rotation(due, { kept: kept.size, cap: 4, inFlight: 2 }).forEach((x, k) => {
        reads.push(x.id);
        last.set(x.id, t + k);
        if (x.keep) kept.add(x.id);
      });
      expect(kept.size).toBeLessThanOrEqual(2);
    }
    for (const id of "abcdefghij") expect(reads.filter((x) => x === id)).toHaveLength(3);
  });
});

describe("otherFoldersDue", () => {
  it.each([
    [undefined, 100_000, 5_000, 4, true],
    [100_000, 100_000, 5_000, 4, false],
    [100_000, 115_000, 5_000, 4, false],
    [100_000, 117_500, 5_000, 4, true],
    [100_000, 101_000, 5_000, 1, true],
  ])("last %s, now %i, poll %i, every %i: %s", (last, now, poll, every, want) => {
    expect(otherFoldersDue(last, now, poll, every)).toBe(want);
  });
});
