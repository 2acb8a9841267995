import { defineRoute } from "../route";
import { mailboxSchema } from "../../mailboxes/schemas";
import {
  bulkResumeBody,
  bulkResumeResponse,
  patchWarmupBody,
  presetBody,
  presetsResponse,
  resumeResponse,
  warmupSettingsBody,
} from "../../warmup/schemas";

const tag = "Warmup";

/** The warmup routes and the presets. */
export const warmupRoutes = {
  start: defineRoute({
    method: "POST",
    path: "/mailboxes/{id}/start-warmup",
    tag,
    access: "write",
    body: warmupSettingsBody,
    bodyOptional: true,
    errors: [409],
    summary:
      "Start warmup at day 0 (restarts at day 0 when already warming). Missing settings: the preset for the mailbox's provider class, then 10 / +5 / 40 / 25–35 %",
    response: { description: "The mailbox row", schema: mailboxSchema },
  }),
  stop: defineRoute({
    method: "POST",
    path: "/mailboxes/{id}/stop-warmup",
    tag,
    access: "write",
    errors: [409],
    summary: "Pause warmup (the day reached is kept)",
    response: { description: "The mailbox row with warmupStatus PAUSED", schema: mailboxSchema },
  }),
  resume: defineRoute({
    method: "POST",
    path: "/mailboxes/{id}/resume-warmup",
    tag,
    access: "write",
    errors: [409],
    summary: "Resume warmup on the day it reached (day 0 for a pause before 26 Sep 2026)",
    response: { description: "`{ dayIndex, resumedMidRamp, warmupStatus }`", schema: resumeResponse },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/mailboxes/{id}/warmup",
    tag,
    access: "write",
    body: patchWarmupBody,
    errors: [409],
    summary: "Change warmup settings; the current day is kept",
    response: { description: "The mailbox row", schema: mailboxSchema },
  }),
  bulkResume: defineRoute({
    method: "POST",
    path: "/mailboxes/bulk-resume-warmup",
    tag,
    access: "write",
    body: bulkResumeBody,
    summary: "Resume many; an address warming in another workspace (or not resumable) is skipped with the reason",
    response: { description: "`{ resumed, skipped }`", schema: bulkResumeResponse },
  }),
  presets: defineRoute({
    method: "GET",
    path: "/warmup/presets",
    tag,
    access: "read",
    summary: "Warmup presets per provider class (GOOGLE, MICROSOFT, OTHER; null when unset)",
    response: { description: "`{ presets }`", schema: presetsResponse },
  }),
  putPreset: defineRoute({
    method: "PUT",
    path: "/warmup/presets/{class}",
    tag,
    access: "write",
    body: presetBody,
    summary: "Set the preset of one provider class (an empty object clears it)",
    response: { description: "`{ presets }`", schema: presetsResponse },
  }),
};
