import { z } from "zod";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

/** PUT /settings/ai-provider. */
export const putAiProviderBody = z.object({
  baseUrl: z.string().trim().min(1, "enter the endpoint's base URL").max(2000).describe("The endpoint, e.g. https://api.openai.com/v1"),
  model: z.string().trim().min(1, "enter the chat model's name").max(200).describe("Chat model (classification, drafts, answers)"),
  embeddingModel: optionalText(200).describe("Embeddings model; absent, null or empty: no embeddings (full-text search only)"),
  apiKey: z
    .string()
    .trim()
    .max(4000)
    .nullish()
    .describe("Bearer key. Absent: the stored key is kept (same host only). null or empty: no key (a local server)"),
});
export type PutAiProviderInput = z.infer<typeof putAiProviderBody>;

export const aiProviderSettingSchema = z.object({
  configured: z.boolean().describe("Whether AI work goes to a model (false: the built-in rules and templates)"),
  source: z.enum(["workspace", "environment", "none"]).describe("workspace: set here; environment: the installation's AI_* variables"),
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  embeddingModel: z.string().nullable(),
  keySet: z.boolean().describe("Whether an API key is stored (the key itself is never returned)"),
});
export type AiProviderSetting = z.infer<typeof aiProviderSettingSchema>;

export const aiProviderTestSchema = z.object({
  ok: z.boolean(),
  model: z.string().nullable().describe("The model asked"),
  latencyMs: z.number().int().describe("How long the endpoint took to answer (or to fail)"),
  error: z.string().optional().describe("Why the call failed, when ok is false"),
});
export type AiProviderTest = z.infer<typeof aiProviderTestSchema>;
