import { z } from "zod";
import { ITEM_IDS } from "../../onboarding/items";
import { defineRoute } from "../route";

export const onboardingItemSchema = z.object({
  id: z.enum(ITEM_IDS).describe("mailbox, dns, warmup, leads, campaign or launch"),
  label: z.string(),
  done: z.boolean().describe("Read from the workspace as it is now, however the step was done"),
  href: z.string().describe("The dashboard page where the step is done"),
  detail: z.string().nullable().describe("Progress or what is missing, e.g. `1 of 2 domains publish all three`"),
});

export const onboardingSchema = z.object({
  items: z.array(onboardingItemSchema),
  dismissed: z.boolean().describe("Someone in the workspace hid the checklist"),
  complete: z.boolean().describe("Every item is done; the dashboard no longer shows the checklist"),
});

const member = { tag: "Onboarding", role: "member" } as const;
const answer = { description: "`{ items: [{ id, label, done, href, detail }], dismissed, complete }`", schema: onboardingSchema };

/** The set-up checklist of a new workspace (members and up; a client seat never sees it). See docs/onboarding.md. */
export const onboardingRoutes = {
  get: defineRoute({
    ...member,
    method: "GET",
    path: "/onboarding",
    access: "read",
    summary:
      "The set-up checklist: connect a mailbox, its domain's SPF, DKIM and DMARC found, warmup started, leads imported, " +
      "a campaign with a step, launched — each ticked from the workspace's own data (docs/onboarding.md)",
    response: answer,
  }),
  dismiss: defineRoute({
    ...member,
    method: "POST",
    path: "/onboarding/dismiss",
    access: "write",
    summary: "Hide the checklist for everyone in the workspace (kept in the workspace's settings)",
    response: answer,
  }),
  undismiss: defineRoute({
    ...member,
    method: "DELETE",
    path: "/onboarding/dismiss",
    access: "write",
    summary: "Show the checklist again (until every item is done)",
    response: answer,
  }),
};
