import { z } from "zod";
import { COMPANY_SIZES, DEPARTMENTS, SENIORITIES } from "../../finder/vocabulary";
import {
  addToLeadsBody,
  aiSearchBody,
  countBody,
  enrichBody,
  facetsBody,
  FACETS,
  finderFilters,
  importBody,
  personIdsBody,
  searchBody,
} from "../../finder/schemas";
import { ESP_CLASSES, VERIFICATION_STATUSES } from "../../leads/schemas";
import { defineRoute } from "../route";

const tag = "Lead finder";
const iso = z.string().describe("ISO 8601 UTC");
const n = z.string().nullable();

export const finderPersonSchema = z.object({
  id: z.string(),
  firstName: n,
  lastName: n,
  title: n,
  seniority: z.enum(SENIORITIES).nullable(),
  department: z.enum(DEPARTMENTS).nullable(),
  companyName: n,
  companyDomain: n,
  industry: n.describe("lower-case"),
  companySize: z.enum(COMPANY_SIZES).nullable(),
  country: n.describe("English name"),
  city: n,
  linkedinUrl: n,
  technologies: z.array(z.string()).describe("lower-case"),
  email: n.describe("Imported, or found by an enrichment job"),
  verificationStatus: z.enum(VERIFICATION_STATUSES),
  espClass: z.enum(ESP_CLASSES),
  createdAt: iso,
});

const jobSchema = z.object({
  id: z.string(),
  kind: z.enum(["ENRICH", "LEADS"]).describe("LEADS: started by POST /leads with verify: true"),
  status: z.enum(["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]),
  verify: z.boolean(),
  total: z.number(),
  done: z.number(),
  found: z.number().describe("people with an address found"),
  verified: z.number().describe("addresses verified VALID"),
  error: n,
  createdAt: iso,
  completedAt: iso.nullable(),
  results: z.array(
    z.object({
      personId: n,
      leadId: n,
      email: n,
      verificationStatus: z.enum(VERIFICATION_STATUSES),
      espClass: z.enum(ESP_CLASSES),
      pending: z.boolean().describe("still to be worked, or waiting for a greylisting retry"),
      nextAttemptAt: iso.nullable(),
      detail: n.describe("the SMTP answer, no MX, the timeout…"),
    }),
  ),
});

const facetValues = z.array(z.object({ value: z.string(), count: z.number() }));

export const finderRoutes = {
  access: defineRoute({
    method: "GET",
    path: "/finder/access",
    tag,
    access: "read",
    summary: "Whether the finder is on, its configured providers, and the workspace's monthly credits",
    response: {
      description: "`{ enabled, providers, credits }`",
      schema: z.object({
        enabled: z.boolean(),
        providers: z.array(z.string()),
        credits: z.object({ limit: z.number(), used: z.number(), remaining: z.number(), resetsAt: iso }),
      }),
    },
  }),
  meta: defineRoute({
    method: "GET",
    path: "/finder/meta",
    tag,
    access: "read",
    summary: "The search filters and the allowed values of the fixed ones (seniorities, departments, company sizes)",
    response: {
      description: "`{ filters: [{ name, kind, values }], combine }`",
      schema: z.object({
        filters: z.array(z.object({ name: z.string(), kind: z.enum(["enum", "values", "text"]), values: z.array(z.string()).nullable() })),
        combine: z.string(),
      }),
    },
  }),
  providers: defineRoute({
    method: "GET",
    path: "/finder/providers",
    tag,
    access: "read",
    summary: "The finder's providers: the built-in directory and paid ones configured by API key",
    response: {
      description: "`[{ name, kind, configured }]`",
      schema: z.array(z.object({ name: z.string(), kind: z.enum(["directory", "enrichment"]), configured: z.boolean() })),
    },
  }),
  import: defineRoute({
    method: "POST",
    path: "/finder/directory/import",
    tag,
    access: "write",
    body: importBody,
    bodyLimit: 20 * 1024 * 1024,
    summary:
      "Add people to the workspace's directory: `{ people: [...] }` or `{ csv }` (a header row naming the fields). " +
      "A row that is someone already there (same LinkedIn URL, else email, else name and company domain) updates them " +
      "with its non-empty values. Bad rows are reported",
    response: {
      description: "`{ imported, updated, rejected: [{ row, reasons }], personIds }` (row: 1-based data row)",
      schema: z.object({
        imported: z.number().describe("people added"),
        updated: z.number().describe("rows that updated someone already in the directory (or added by an earlier row)"),
        rejected: z.array(z.object({ row: z.number(), reasons: z.array(z.string()) })),
        personIds: z.array(z.string()).describe("the people of the accepted rows, each once, in row order"),
      }),
    },
  }),
  search: defineRoute({
    method: "POST",
    path: "/finder/search",
    tag,
    access: "write",
    body: searchBody,
    summary: "Directory people matching the filters (AND across filters, OR within one), in import order",
    response: {
      description: "`{ people, page, limit, total }`",
      schema: z.object({ people: z.array(finderPersonSchema), page: z.number(), limit: z.number(), total: z.number() }),
    },
  }),
  count: defineRoute({
    method: "POST",
    path: "/finder/count",
    tag,
    access: "write",
    body: countBody,
    summary: "How many directory people match the filters",
    response: { description: "`{ total }`", schema: z.object({ total: z.number() }) },
  }),
  facets: defineRoute({
    method: "POST",
    path: "/finder/facets",
    tag,
    access: "write",
    body: facetsBody,
    summary: "Per filter, its values with their counts among the people matching every other filter",
    response: {
      description: "`{ facets: { <filter>: [{ value, count }] } }`",
      schema: z.object({ facets: z.object(Object.fromEntries(FACETS.map((f) => [f, facetValues.optional()]))) }),
    },
  }),
  person: defineRoute({
    method: "GET",
    path: "/finder/people/{id}",
    tag,
    access: "read",
    summary: "One directory person",
    response: { description: "The person", schema: finderPersonSchema },
  }),
  aiSearch: defineRoute({
    method: "POST",
    path: "/finder/ai-search",
    tag,
    access: "write",
    body: aiSearchBody,
    summary:
      "A sentence → filters (through the AI provider for one AI credit; without one, a rule-based parser) and the first page of people. " +
      "Out of credits → 429 RATE_LIMITED with details.reason AI_CREDITS",
    errors: [429],
    response: {
      description: "`{ filters, people, total, source }` (source: ai or rules)",
      schema: z.object({ filters: finderFilters, people: z.array(finderPersonSchema), total: z.number(), source: z.enum(["ai", "rules"]) }),
    },
  }),
  estimate: defineRoute({
    method: "POST",
    path: "/finder/enrich/estimate",
    tag,
    access: "write",
    body: personIdsBody,
    summary: "How many of the people can be enriched (a known email, or a company domain and a name) and the credits that costs",
    response: { description: "`{ people, credits }`", schema: z.object({ people: z.number(), credits: z.number() }) },
  }),
  enrich: defineRoute({
    method: "POST",
    path: "/finder/enrich",
    tag,
    access: "write",
    body: enrichBody,
    summary:
      "Find and verify work emails (colleagues' patterns or common ones, MX, SMTP RCPT TO with a catch-all probe); one AI credit per person worked. " +
      "Unknown personIds → 400; not enough credits → 429 AI_CREDITS",
    errors: [429],
    response: { status: 202, description: "The QUEUED job", schema: jobSchema },
  }),
  enrichJob: defineRoute({
    method: "GET",
    path: "/finder/enrich/jobs/{id}",
    tag,
    access: "read",
    summary: "An enrichment job's progress and per-person results",
    response: { description: "The job", schema: jobSchema },
  }),
  enrichCancel: defineRoute({
    method: "POST",
    path: "/finder/enrich/jobs/{id}/cancel",
    tag,
    access: "write",
    summary: "Stop a job: no further probe is sent; a finished job is returned as it is",
    response: { description: "The job, CANCELLED", schema: jobSchema },
  }),
  addToLeads: defineRoute({
    method: "POST",
    path: "/finder/enrich/jobs/{id}/add-to-leads",
    tag,
    access: "write",
    body: addToLeadsBody,
    bodyOptional: true,
    summary:
      "The job's people with a VALID (and CATCH_ALL) address become leads (merge by email, suppressed ones skipped), and join campaignId when given",
    response: {
      description: "`{ leadIds, created, updated, suppressedEmails, campaign }`",
      schema: z.object({
        leadIds: z.array(z.string()),
        created: z.number(),
        updated: z.number(),
        suppressedEmails: z.array(z.string()),
        campaign: z
          .object({
            campaignId: z.string(),
            added: z.number(),
            results: z.array(z.object({ leadId: z.string(), email: n, result: z.string(), mailboxId: n, error: z.string().optional() })),
          })
          .nullable(),
      }),
    },
  }),
};
