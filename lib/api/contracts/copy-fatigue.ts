import { defineRoute } from "../route";
import { fatigueListSchema, fatigueRewriteSchema, fatigueStepSchema } from "../../copy-fatigue/schemas";

const tag = "Copy fatigue";

/** Copy fatigue. */
export const copyFatigueRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/campaigns/{id}/copy-fatigue",
    tag,
    access: "read",
    summary:
      "Every step and variant with its copy-fatigue status (OK, FATIGUED, DISMISSED), sends and reply rates over the first and the latest 200 sends. " +
      "A step never scanned, or whose copy changed since, is scanned first",
    response: { description: "`{ steps, lastScanAt }`", schema: fatigueListSchema },
  }),
  scan: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/copy-fatigue/scan",
    tag,
    access: "write",
    summary: "Scan every step and variant now (the hourly job does it too)",
    response: { status: 202, description: "The same as GET, after the scan", schema: fatigueListSchema },
  }),
  dismiss: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/copy-fatigue/{stepId}/dismiss",
    tag,
    access: "write",
    errors: [404, 409],
    summary:
      "Clear a step's flag without changing it: DISMISSED until its copy changes or it is flagged for a new reason (409 when it is not flagged)",
    response: { description: "That step's row", schema: fatigueStepSchema },
  }),
  apply: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/copy-fatigue/{stepId}/apply",
    tag,
    access: "write",
    errors: [404, 429],
    summary:
      "Clear the flag and return a rewrite of the step's copy, from the AI provider (one AI credit) or the deterministic fallback. " +
      "The step is not changed: PATCH the step to save it",
    response: { description: "`{ stepId, subject, bodyTemplate, provider }`", schema: fatigueRewriteSchema },
  }),
};
