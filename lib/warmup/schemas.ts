import { z } from "zod";

/** The five warmup settings: integers within these ranges, min ≤ max. */
const settingsShape = {
  startingVolume: z.number().int().min(1).max(50).describe("Warmup emails on day 0 (1–50)"),
  dailyIncrease: z.number().int().min(0).max(10).describe("Added each day of the ramp (0–10)"),
  targetVolume: z.number().int().min(1).max(200).describe("Daily volume the ramp climbs to (1–200)"),
  replyRateMinPct: z.number().int().min(0).max(100).describe("Least share of its warmup emails that partners answer (0–100)"),
  replyRateMaxPct: z.number().int().min(0).max(100).describe("Greatest share partners answer (0–100, ≥ replyRateMinPct)"),
};

const minNotAboveMax = (o: { replyRateMinPct?: number; replyRateMaxPct?: number }) =>
  o.replyRateMinPct === undefined || o.replyRateMaxPct === undefined || o.replyRateMinPct <= o.replyRateMaxPct;
const minAboveMax = { message: "replyRateMinPct must not be above replyRateMaxPct", path: ["replyRateMinPct"] };

/** start-warmup and PATCH /warmup: every field optional (missing ones: preset, then default). */
export const warmupSettingsBody = z.object(settingsShape).partial().strict().refine(minNotAboveMax, minAboveMax);
export type WarmupSettingsInput = z.infer<typeof warmupSettingsBody>;

/** PATCH /warmup must change something. */
export const patchWarmupBody = warmupSettingsBody.refine((o) => Object.keys(o).length > 0, "send at least one setting");

export const presetClassSchema = z.enum(["GOOGLE", "MICROSOFT", "OTHER"]);

/** A preset: any of the five settings; an empty object clears the preset. */
export const presetBody = warmupSettingsBody;
export const presetSchema = z.object(settingsShape).partial().nullable();
export const presetsResponse = z.object({
  presets: z.object({ GOOGLE: presetSchema, MICROSOFT: presetSchema, OTHER: presetSchema }),
});

export const bulkResumeBody = z.object({
  mailboxIds: z.array(z.string().max(100)).min(1).max(5000, "at most 5,000 mailboxes per call"),
});

export const warmupStatusSchema = z.enum(["OFF", "EARLY", "RAMPING", "STEADY", "PAUSED", "AUTO_PAUSED"]);

export const resumeResponse = z.object({
  dayIndex: z.number().int(),
  resumedMidRamp: z.boolean().describe("False only for a mailbox paused before 26 Sep 2026, which restarts at day 0"),
  warmupStatus: warmupStatusSchema,
});

export const bulkResumeResponse = z.object({
  resumed: z.array(z.string()),
  skipped: z.array(z.object({ mailboxId: z.string(), email: z.string().nullable(), reason: z.string() })),
});
