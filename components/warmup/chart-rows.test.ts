import { describe, expect, it } from "vitest";
import { dayLabel, hasRamp, rampRows } from "./chart-rows";

describe("warmup ramp chart rows", () => {
  const daily = [
    { date: "2026-11-01", target: 0, sent: 0, replied: 0 },
    { date: "2026-11-02", target: 10, sent: 9, replied: 3 },
    { date: "2026-11-03", target: 15, sent: 15, replied: 4 },
  ];

  it("keeps one row a day, oldest first, with sent and replied as counted", () => {
    const rows = rampRows(daily);
    expect(rows.map((r) => [r.date, r.sent, r.replied])).toEqual([
      ["2026-11-01", 0, 0],
      ["2026-11-02", 9, 3],
      ["2026-11-03", 15, 4],
    ]);
  });

  it("draws a day without a ramp (target 0) as a gap in the target line, not as a target of nothing", () => {
    expect(rampRows(daily).map((r) => r.target)).toEqual([null, 10, 15]);
  });

  it("labels each row with its UTC day, whatever the viewer's time zone", () => {
    expect(dayLabel("2026-11-03")).toBe("Nov 3");
    expect(dayLabel("2026-01-01")).toBe("Jan 1");
    expect(rampRows(daily)[1].label).toBe("Nov 2");
  });

  it("says there is nothing to draw when no day had a ramp, a warmup email or an answer", () => {
    expect(hasRamp(daily)).toBe(true);
    expect(hasRamp([{ date: "2026-11-01", target: 0, sent: 0, replied: 0 }])).toBe(false);
    expect(hasRamp([])).toBe(false);
  });
});
