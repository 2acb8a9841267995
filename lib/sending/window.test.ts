import { describe, expect, it } from "vitest";
import { campaignDay, inWindow, nextWindowOpen, windowAt, windowState, zoneFor } from "./window";

const c = { sendWindowStartHour: 9, sendWindowEndHour: 17, sendDaysOfWeek: [1, 2, 3, 4, 5], defaultTimezone: "Europe/Berlin" };

describe("send windows in each lead's timezone", () => {
  it("reads hours and days in the lead's zone, else the campaign's, else any hour", () => {
    expect(zoneFor(c, "America/New_York")).toBe("America/New_York");
    expect(zoneFor(c, null)).toBe("Europe/Berlin");
    expect(zoneFor({ ...c, defaultTimezone: null }, null)).toBeNull();
    const mon1400utc = new Date("2026-11-02T14:00:00Z"); // Monday: 09:00 New York, 15:00 Berlin, 23:00 Tokyo
    expect(inWindow(c, "America/New_York", mon1400utc)).toBe(true);
    expect(inWindow(c, "Europe/Berlin", mon1400utc)).toBe(true);
    expect(inWindow(c, "Asia/Tokyo", mon1400utc)).toBe(false);
    expect(inWindow(c, "America/New_York", new Date("2026-11-02T13:59:00Z"))).toBe(false); // 08:59
    expect(inWindow(c, "Europe/Berlin", new Date("2026-11-02T16:00:00Z"))).toBe(false); // 17:00 is outside (end exclusive)
    expect(inWindow(c, null, new Date("2026-11-02T02:00:00Z"))).toBe(true); // any hour without a zone
    expect(inWindow(c, null, new Date("2026-11-01T12:00:00Z"))).toBe(false); // Sunday (UTC) is not a sending day
    expect(inWindow(c, "Asia/Tokyo", new Date("2026-11-06T23:30:00Z"))).toBe(false); // Saturday 08:30 in Tokyo
  });

  it("finds the next opening, across nights and weekends", () => {
    expect(nextWindowOpen(c, "America/New_York", new Date("2026-11-02T12:00:00Z"))?.toISOString()).toBe("2026-11-02T14:00:00.000Z");
    expect(nextWindowOpen(c, "Europe/Berlin", new Date("2026-11-06T17:00:00Z"))?.toISOString()).toBe("2026-11-09T08:00:00.000Z"); // Fri evening → Mon 09:00
    const inside = new Date("2026-11-03T10:00:00Z");
    expect(nextWindowOpen(c, "Europe/Berlin", inside)).toEqual(inside);
  });

  it("windowAt gives what windowState and nextWindowOpen give, asked once or again, for any settings, zone and moment", () => {
    const zones = [
      null,
      "UTC",
      "America/New_York",
      "Europe/Berlin",
      "Asia/Tokyo",
      "Australia/Adelaide",
      "Asia/Kathmandu",
      "Pacific/Chatham",
    ];
    const settings = [
      c,
      { ...c, sendWindowStartHour: 0, sendWindowEndHour: 24 },
      { ...c, sendDaysOfWeek: [0, 6] },
      { ...c, sendDaysOfWeek: [] },
    ];
    let asked = 0;
    for (let h = 0; h < 24 * 8; h += 5) {
      const at = new Date(Date.UTC(2026, 2, 27, h, 30)); // across Europe's and Chatham's clock changes
      for (const s of settings)
        for (const zone of zones)
          for (let again = 0; again < 2; again++) {
            const got = windowAt(s, zone, at);
            const state = windowState(s, zone, at);
            expect(got.state).toBe(state);
            expect(got.opens).toEqual(state === "open" ? at : nextWindowOpen(s, zone, at));
            asked++;
          }
    }
    expect(asked).toBeGreaterThan(1000);
    // Each caller gets its own Date: changing one does not change what the next caller is told.
    const first = windowAt(c, "Asia/Tokyo", new Date("2026-11-02T14:00:00Z"));
    first.opens?.setTime(0);
    expect(windowAt(c, "Asia/Tokyo", new Date("2026-11-02T14:00:00Z")).opens?.toISOString()).toBe("2026-11-03T00:00:00.000Z");
  });

  it("counts the campaign's day in its default timezone, else UTC", () => {
    expect(campaignDay("America/Los_Angeles", new Date("2026-11-03T07:00:00Z")).start.toISOString()).toBe("2026-11-02T08:00:00.000Z");
    expect(campaignDay(null, new Date("2026-11-03T07:00:00Z")).start.toISOString()).toBe("2026-11-03T00:00:00.000Z");
  });
  it("windowAt tells countries and blackout lists apart (the memo key holds them)", () => {
    const easterMonday = new Date("2026-04-06T10:00:00Z"); // 12:00 in Berlin
    const skip = { ...c, skipHolidays: true };
    expect(windowAt(skip, "Europe/Berlin", easterMonday, "DE").state).toBe("holiday");
    expect(windowAt(skip, "Europe/Berlin", easterMonday, "US").state).toBe("open");
    expect(windowAt(skip, "Europe/Berlin", easterMonday, null).state).toBe("open");
    expect(windowAt({ ...c, blackoutDates: ["2026-04-06"] }, "Europe/Berlin", easterMonday).state).toBe("blackout");
    expect(windowAt({ ...c, blackoutDates: ["2026-04-07"] }, "Europe/Berlin", easterMonday).state).toBe("open");
    // Whatever is shut, a year of blackout dates still finds the first open day after them.
    const year = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 3, 6 + i)).toISOString().slice(0, 10));
    expect(nextWindowOpen({ ...c, blackoutDates: year }, "UTC", easterMonday)?.toISOString()).toBe("2027-04-06T09:00:00.000Z");
  });
});
