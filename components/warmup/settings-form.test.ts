import { describe, expect, it } from "vitest";
import { changedSettings, parseSettings, settingsForm } from "./settings-form";

const ramp = { startingVolume: 10, dailyIncrease: 5, targetVolume: 40, replyRateMinPct: 25, replyRateMaxPct: 35 };

describe("warmup settings form", () => {
  it("shows saved settings and leaves fields a preset does not set blank", () => {
    expect(settingsForm(ramp)).toEqual({
      startingVolume: "10",
      dailyIncrease: "5",
      targetVolume: "40",
      replyRateMinPct: "25",
      replyRateMaxPct: "35",
    });
    expect(settingsForm({ dailyIncrease: 0 })).toMatchObject({ startingVolume: "", dailyIncrease: "0" });
    expect(settingsForm(null).targetVolume).toBe("");
  });

  it("leaves blank fields out of the body, so the API fills them from the preset, then the default", () => {
    const form = { ...settingsForm(null), startingVolume: " 12 ", targetVolume: "60" };
    expect(parseSettings(form)).toEqual({ body: { startingVolume: 12, targetVolume: 60 }, fieldErrors: {} });
    expect(parseSettings(settingsForm(null))).toEqual({ body: {}, fieldErrors: {} });
  });

  it("refuses what is not a whole number, per field", () => {
    const { fieldErrors } = parseSettings({ ...settingsForm(ramp), dailyIncrease: "2.5", targetVolume: "lots" });
    expect(Object.keys(fieldErrors).sort()).toEqual(["dailyIncrease", "targetVolume"]);
  });

  it("applies the API's ranges per field (startingVolume 1–50, dailyIncrease 0–10, targetVolume 1–200, rates 0–100)", () => {
    const { fieldErrors } = parseSettings({
      startingVolume: "51",
      dailyIncrease: "11",
      targetVolume: "0",
      replyRateMinPct: "-1",
      replyRateMaxPct: "101",
    });
    expect(Object.keys(fieldErrors).sort()).toEqual([
      "dailyIncrease",
      "replyRateMaxPct",
      "replyRateMinPct",
      "startingVolume",
      "targetVolume",
    ]);
    expect(parseSettings({ ...settingsForm(ramp), startingVolume: "50", dailyIncrease: "0", targetVolume: "200" }).fieldErrors).toEqual({});
  });

  it("puts a min reply rate above the max on the min field, as the API does", () => {
    const { fieldErrors } = parseSettings({ ...settingsForm(ramp), replyRateMinPct: "40", replyRateMaxPct: "30" });
    expect(fieldErrors.replyRateMinPct?.[0]).toMatch(/replyRateMinPct must not be above replyRateMaxPct/);
    expect(fieldErrors.replyRateMaxPct).toBeUndefined();
  });

  it("sends only the settings that changed, so PATCH /warmup keeps the rest", () => {
    expect(changedSettings({ ...ramp, targetVolume: 50 }, ramp)).toEqual({ targetVolume: 50 });
    expect(changedSettings({ startingVolume: 10 }, ramp)).toEqual({});
  });
});
