import { describe, expect, it } from "vitest";
import { countryOf, holidayOn, holidaysBetween, skippedDay } from "./holidays";

describe("a lead's country", () => {
  it.each([
    ["the country field wins over the zone", { timezone: "America/New_York", customFields: { country: "de" } }, "DE"],
    ["from the zone", { timezone: "Europe/Berlin" }, "DE"],
    ["from a backward-compatible alias", { timezone: "US/Eastern" }, "US"],
    ["from an old alias of another country", { timezone: "Asia/Calcutta" }, "IN"],
    ["a field that is no country code falls back to the zone", { timezone: "Europe/Paris", customFields: { country: "Germany" } }, "FR"],
    ["an unknown two-letter field falls back to the zone", { timezone: "Europe/Madrid", customFields: { country: "ZZ" } }, "ES"],
    ["UTC has no country", { timezone: "UTC" }, null],
    ["no zone, no field", {}, null],
  ])("%s", (_name, lead, expected) => {
    expect(countryOf(lead)).toBe(expected);
  });

  it("uses the campaign's zone when the lead has none", () => {
    expect(countryOf({}, "Europe/Rome")).toBe("IT");
  });
});

describe("holidays and blackout dates", () => {
  it.each([
    ["DE", "2026-10-03", "National Holiday"],
    ["DE", "2026-12-25", "Christmas Day"],
    ["US", "2026-11-26", "Thanksgiving Day"],
    ["US", "2026-07-04", "Independence Day"],
    ["FR", "2026-07-14", "Bastille Day"],
  ])("%s %s is a public holiday", (country, day, name) => {
    expect(holidayOn(country, day)).toContain(name.split(" ")[0]);
  });

  it.each([
    ["US", "2026-10-03"],
    ["DE", "2026-11-26"],
    ["DE", "2026-12-24"], // Christmas Eve is not a public holiday in Germany
    ["DE", "2026-12-02"],
  ])("%s %s is an ordinary day", (country, day) => {
    expect(holidayOn(country, day)).toBeNull();
  });

  it("skips a holiday only when the campaign asks, and a blackout date always", () => {
    const off = { skipHolidays: false, blackoutDates: ["2026-12-31"] };
    const on = { skipHolidays: true, blackoutDates: ["2026-12-31"] };
    expect(skippedDay(off, "DE", "2026-10-03")).toBeNull();
    expect(skippedDay(on, "DE", "2026-10-03")).toEqual({ kind: "holiday", name: "National Holiday" });
    expect(skippedDay(on, "US", "2026-10-03")).toBeNull();
    expect(skippedDay(off, "US", "2026-12-31")).toEqual({ kind: "blackout" });
    expect(skippedDay(on, null, "2026-12-25")).toBeNull();
  });

  it("lists a country's holidays in a range across a year end", () => {
    const days = holidaysBetween("DE", "2026-12-20", "2027-01-10").map((h) => h.day);
    expect(days).toEqual(["2026-12-25", "2026-12-26", "2027-01-01"]);
  });
});
