import { z } from "zod";
import { suppressionSchema } from "../../suppressions/suppressions";
import { tagSchema } from "../../tags/tags";

/** Response schemas of the lead, suppression and timezone routes (leads.ts, workspace.ts). */

const int = () => z.number().int();

export const bulkPatchResultSchema = z.object({
  updated: int(),
  unchanged: int(),
  notFound: int(),
  suppressed: int(),
  results: z.array(
    z.object({
      index: int().describe("Position in the request"),
      id: z.string().nullable(),
      email: z.string().nullable(),
      status: z.enum(["updated", "unchanged", "suppressed", "not_found"]),
    }),
  ),
  suppressedEmails: z.array(z.string()),
});
export const bulkDeleteResultSchema = z.object({ deleted: int(), notFound: int() });
export const leadTagAttachedSchema = z.object({
  leadId: z.string(),
  tag: tagSchema,
  attached: z.boolean().describe("false when it was already attached"),
});
export const leadTagRemovedSchema = z.object({ leadId: z.string(), tagId: z.string(), removed: z.boolean() });

export const addSuppressionsResultSchema = z.object({
  added: int(),
  existing: int(),
  invalid: z.array(z.object({ value: z.string(), reason: z.string() })),
  suppressions: z.array(suppressionSchema),
});
export const timezonesSchema = z.object({
  countries: z.array(
    z.object({
      code: z.string().describe("ISO 3166-1 alpha-2"),
      name: z.string(),
      timezones: z.array(
        z.object({ name: z.string().describe("IANA name"), utcOffset: z.string().describe("e.g. +05:30"), utcOffsetMinutes: int() }),
      ),
    }),
  ),
});
