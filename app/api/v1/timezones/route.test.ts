import { afterEach, describe, expect, it } from "vitest";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { call, makeWorkspace } from "@/test/helpers";
import { GET } from "./route";

afterEach(() => useClock(systemClock));

describe("GET /timezones", () => {
  it("lists countries with their IANA zones and the UTC offsets of today", async () => {
    const ws = await makeWorkspace();
    useClock(new ManualClock(new Date("2026-07-01T12:00:00Z")));
    const summer = await call(GET, "GET", "/timezones", { key: ws.readKey });
    expect(summer.status).toBe(200);
    const us = summer.body.countries.find((c: any) => c.code === "US");
    expect(us.name).toContain("United States");
    expect(us.timezones.find((z: any) => z.name === "America/New_York")).toEqual({
      name: "America/New_York",
      utcOffset: "-04:00",
      utcOffsetMinutes: -240,
    });
    useClock(new ManualClock(new Date("2026-01-15T12:00:00Z")));
    const winter = await call(GET, "GET", "/timezones", { key: ws.readKey });
    const ny = winter.body.countries.find((c: any) => c.code === "US").timezones.find((z: any) => z.name === "America/New_York");
    expect(ny.utcOffset).toBe("-05:00");
    const india = winter.body.countries.find((c: any) => c.code === "IN");
    expect(india.timezones[0]).toMatchObject({ name: "Asia/Kolkata", utcOffset: "+05:30" });
    expect(summer.body.countries.length).toBeGreaterThan(200);
  });
});
