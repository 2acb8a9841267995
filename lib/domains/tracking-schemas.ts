import { z } from "zod";

/** A workspace's tracking domain as the API shows it. */
export const trackingDomainSchema = z.object({
  id: z.string().describe("`tdm_…`"),
  domain: z.string().describe("Lower-case host name, for example track.example.com"),
  cnameTarget: z.string().describe("The host the domain must be a CNAME to (APP_URL's host, or TRACKING_CNAME_TARGET)"),
  status: z.enum(["PENDING", "VERIFIED", "FAILING"]),
  verifiedAt: z.string().nullable().describe("When it first passed; kept while FAILING (the domain stays this workspace's)"),
  isDefault: z.boolean().describe("Campaigns without their own tracking domain use it (only while VERIFIED)"),
  lastCheckedAt: z.string().nullable(),
  lastError: z.string().nullable().describe("What the DNS answered at the last failing check; null after a passing one"),
  createdAt: z.string(),
});
export type TrackingDomainView = z.infer<typeof trackingDomainSchema>;

export const trackingDomainListSchema = z.object({ domains: z.array(trackingDomainSchema) });

export const addTrackingDomainBody = z.object({
  domain: z
    .string()
    .trim()
    .min(1, "domain is required")
    .max(253)
    .describe("A host name such as track.example.com: no scheme, path or port"),
});

export const patchTrackingDomainBody = z.object({
  isDefault: z.boolean().describe("true makes this VERIFIED domain the default (the previous default stops being one); false unsets it"),
});
