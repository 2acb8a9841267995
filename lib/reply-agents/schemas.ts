import { z } from "zod";

/** Reply agent shapes (see docs/reply-agents.md). */
export const toneSchema = z.enum(["PROFESSIONAL", "FRIENDLY", "CASUAL", "FORMAL"]);

const idList = z.array(z.string().min(1).max(200)).max(500);

const agentFields = {
  name: z.string().trim().min(1).max(200),
  companyName: z.string().trim().max(200).nullable().optional(),
  companyDomain: z.string().trim().max(253).nullable().optional(),
  tone: toneSchema.optional(),
  additionalInfo: z.string().max(20_000).nullable().optional(),
  autonomousReplies: z.boolean().optional(),
  followUpsEnabled: z.boolean().optional(),
  /** Days without an answer before a follow-up (followUpsEnabled). */
  followUpDays: z.number().int().min(1).max(60).optional(),
  /** The campaigns this agent answers for (a campaign has one agent: attaching moves it here). */
  campaignIds: idList.optional(),
};
export const createAgentBody = z.object(agentFields).strict();
export const patchAgentBody = z
  .object({ ...agentFields, name: agentFields.name.optional() })
  .strict()
  .refine((o) => Object.keys(o).length > 0, "send at least one field");
export type CreateAgentInput = z.infer<typeof createAgentBody>;
export type PatchAgentInput = z.infer<typeof patchAgentBody>;

export const scanStatusSchema = z.enum(["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]);

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  tone: toneSchema,
  additionalInfo: z.string().nullable(),
  autonomousReplies: z.boolean(),
  followUpsEnabled: z.boolean(),
  followUpDays: z.number().int(),
  campaignIds: z.array(z.string()),
  documentCount: z.number().int(),
  website: z.object({
    domain: z.string().nullable(),
    /** The latest crawl's status; null when the site was never scanned. */
    status: scanStatusSchema.nullable(),
    pagesFound: z.number().int(),
    pagesIndexed: z.number().int(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const agentListSchema = z.object({ agents: z.array(agentSchema) });

export const documentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  chunks: z.number().int(),
  status: z.enum(["READY", "FAILED"]),
  createdAt: z.string(),
});
export const documentListSchema = z.object({ documents: z.array(documentSchema) });
export const uploadDocumentBody = z
  .object({
    filename: z.string().trim().min(1).max(255),
    mimeType: z.string().trim().min(1).max(200),
    contentBase64: z.string().min(1),
  })
  .strict();

export const searchBody = z
  .object({ query: z.string().trim().min(1).max(1000), limit: z.number().int().min(1).max(50).optional() })
  .strict();
export const searchResultSchema = z.object({
  results: z.array(z.object({ source: z.string(), title: z.string().nullable(), snippet: z.string(), score: z.number() })),
});

export const scanBody = z
  .object({ url: z.string().trim().min(1).max(2000), maxPages: z.number().int().min(1).max(200).optional() })
  .strict();
export const pageStatusSchema = z.enum(["FOUND", "FETCHED", "INDEXED", "SKIPPED", "FAILED"]);
export const scanSchema = z.object({
  id: z.string().nullable(),
  url: z.string().nullable(),
  domain: z.string().nullable(),
  status: scanStatusSchema.nullable(),
  maxPages: z.number().int().nullable(),
  pagesFound: z.number().int(),
  pagesFetched: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  pages: z.array(z.object({ url: z.string(), title: z.string().nullable(), status: pageStatusSchema })),
});
export const indexBody = z.object({ urls: z.array(z.string().min(1).max(2000)).max(200).optional() }).strict();
export const indexResultSchema = z.object({ indexed: z.number().int(), chunks: z.number().int(), skipped: z.array(z.string()) });
