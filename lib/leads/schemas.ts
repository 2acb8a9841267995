import { z } from "zod";
import { pageQuery } from "../paging";

export const VERIFICATION_STATUSES = ["UNVERIFIED", "VALID", "RISKY", "CATCH_ALL", "INVALID", "UNKNOWN"] as const;
export const ESP_CLASSES = ["GOOGLE", "MICROSOFT", "YAHOO", "ZOHO", "OTHER", "UNKNOWN"] as const;

/** Text fields of a lead. An empty string or null clears the field on a merge. */
export const LEAD_TEXT_FIELDS = ["firstName", "lastName", "companyName", "companyDomain", "phoneNumber", "jobTitle"] as const;
export type LeadTextField = (typeof LEAD_TEXT_FIELDS)[number];

const text = z.string().max(1000).nullable();

/** Values of customFields: strings (numbers and booleans are kept as text); "" or null removes the key. */
export const customFieldsSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^{}\s][^{}]*$/, "custom field names cannot contain braces or start with a space"),
    z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
  )
  .refine((o) => Object.keys(o).length <= 200, "at most 200 custom fields");

const leadFields = {
  firstName: text.optional(),
  lastName: text.optional(),
  companyName: text.optional(),
  companyDomain: text.optional(),
  phoneNumber: text.optional(),
  jobTitle: text.optional(),
  timezone: z.string().max(100).nullable().optional().describe("IANA zone name, e.g. Europe/Berlin"),
  customFields: customFieldsSchema.optional(),
  verificationStatus: z.enum(VERIFICATION_STATUSES).optional(),
};

export const leadInput = z.object({
  // Checked per item (a malformed address is reported for that lead, not a failed batch).
  email: z.string().max(1000).describe("The merge key"),
  ...leadFields,
});
export type LeadInput = z.infer<typeof leadInput>;

export const createLeadsBody = z.object({
  leads: z.array(leadInput).min(1, "send at least one lead").max(1000, "at most 1,000 leads per call"),
  verify: z
    .boolean()
    .optional()
    .describe("Verify the saved addresses over SMTP in the background (docs/finder.md); the answer names the job"),
});

export const patchLeadBody = z
  .object({ email: z.string().max(1000).optional(), ...leadFields })
  .refine((o) => Object.keys(o).length > 0, "send at least one field");
export type PatchLeadInput = z.infer<typeof patchLeadBody>;

export const bulkPatchItem = z
  .object({ id: z.string().max(100).optional(), email: z.string().max(1000).optional(), ...leadFields })
  .refine((o) => o.id || o.email, "each lead needs an id or an email");
export const bulkPatchBody = z.object({ leads: z.array(bulkPatchItem).min(1).max(1000, "at most 1,000 leads per call") });

export const bulkDeleteBody = z.object({ leadIds: z.array(z.string().max(100)).min(1).max(1000, "at most 1,000 ids per call") });

export const listLeadsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  q: z.string().max(200).optional(),
  verificationStatus: z.enum(VERIFICATION_STATUSES).optional(),
  espClass: z.enum(ESP_CLASSES).optional(),
  tagId: z.string().max(100).optional(),
});
export type ListLeadsQuery = z.infer<typeof listLeadsQuery>;

export const tagRef = z
  .object({ tagId: z.string().max(100).optional(), name: z.string().trim().min(1).max(100).optional() })
  .refine((o) => o.tagId || o.name, "send tagId or name");

export const leadSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  jobTitle: z.string().nullable(),
  timezone: z.string().nullable(),
  customFields: z.record(z.string(), z.string()),
  verificationStatus: z.enum(VERIFICATION_STATUSES),
  espClass: z.enum(ESP_CLASSES),
  tags: z.array(z.object({ id: z.string(), name: z.string(), color: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LeadView = z.infer<typeof leadSchema>;

export const createLeadsResult = z.object({
  created: z.number(),
  updated: z.number(),
  suppressed: z.number(),
  invalid: z.number(),
  leads: z.array(z.object({ email: z.string(), id: z.string(), status: z.enum(["created", "updated"]) })),
  leadIds: z.array(z.string()),
  suppressedEmails: z.array(z.string()),
  invalidEmails: z.array(z.object({ index: z.number(), email: z.string(), reason: z.string() })),
  warnings: z.array(z.object({ index: z.number(), email: z.string(), field: z.string(), message: z.string() })),
  verificationJobId: z
    .string()
    .nullable()
    .optional()
    .describe("With verify: true, the job at GET /finder/enrich/jobs/<id> (null: no lead saved)"),
});
export type CreateLeadsResult = z.infer<typeof createLeadsResult>;
