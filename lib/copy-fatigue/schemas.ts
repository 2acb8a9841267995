import { z } from "zod";

/** One step (one variant) as GET /campaigns/<id>/copy-fatigue lists it. */
export const fatigueStepSchema = z.object({
  stepId: z.string(),
  stepOrder: z.number().int(),
  variantGroup: z.string().nullable().describe("The variant's label; null for a step without variants"),
  status: z.enum(["OK", "FATIGUED", "DISMISSED"]),
  sends: z.number().int().describe("Sends (SENT or BOUNCED) of the step's current body"),
  leads: z.number().int().describe("Distinct leads the current body has gone to"),
  firstRate: z.number().nullable().describe("Reply rate over the first 200 sends (0–1); null before 200 sends"),
  recentRate: z.number().nullable().describe("Reply rate over the latest 200 sends (0–1); null before 200 sends"),
  reasons: z.array(z.enum(["RATE_DROP", "BODY_OVERUSED"])).describe("Why it is (or was, when dismissed) flagged"),
  reason: z.string().nullable(),
  suggestion: z.string().nullable(),
  scannedAt: z.string(),
});

export const fatigueListSchema = z.object({
  steps: z.array(fatigueStepSchema),
  lastScanAt: z.string().nullable(),
});

export const fatigueRewriteSchema = z.object({
  stepId: z.string(),
  subject: z.string().nullable().describe("null for a follow-up (its own subject is never used)"),
  bodyTemplate: z.string(),
  provider: z.enum(["ai", "fallback"]).describe("ai: the AI provider wrote it; fallback: the deterministic rewrite"),
  generatedBy: z
    .enum(["template", "ai"])
    .describe("How the rewrite was made: ai by the AI provider, template by the deterministic rewrite"),
});
