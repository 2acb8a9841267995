import { defineRoute } from "../route";
import { aiProviderSettingSchema, aiProviderTestSchema, putAiProviderBody } from "../../ai/provider-schemas";

const tag = "AI";

/** The workspace's own AI endpoint (Settings → AI), which wins over the installation's AI_* variables (docs/ai.md). */
export const aiProviderRoutes = {
  get: defineRoute({
    method: "GET",
    path: "/settings/ai-provider",
    tag,
    access: "read",
    role: "member",
    summary:
      "Where the workspace's AI work goes: its own endpoint (source workspace), the installation's AI_* variables (environment), or none " +
      "(the built-in rules and templates). The API key is never returned: keySet says whether one is stored",
    response: { description: "`{ configured, source, baseUrl, model, embeddingModel, keySet }`", schema: aiProviderSettingSchema },
  }),
  put: defineRoute({
    method: "PUT",
    path: "/settings/ai-provider",
    tag,
    access: "write",
    role: "admin",
    body: putAiProviderBody,
    summary:
      "Set the workspace's OpenAI-compatible endpoint (owner or admin). The URL must pass the outbound guard (a private address: 400 on " +
      "baseUrl; the operator may allow it with OUTBOUND_ALLOW_HOSTS). apiKey absent keeps the stored key for the same host; null or " +
      "empty stores none. The key is stored encrypted",
    response: { description: "The setting, as GET shows it", schema: aiProviderSettingSchema },
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/settings/ai-provider",
    tag,
    access: "write",
    role: "admin",
    summary: "Remove the workspace's own endpoint (owner or admin): back to the AI_* variables, or to none. Removing none is not an error",
    response: { description: "The setting, as GET shows it", schema: aiProviderSettingSchema },
  }),
  test: defineRoute({
    method: "POST",
    path: "/settings/ai-provider/test",
    tag,
    access: "write",
    role: "admin",
    summary:
      "Call the provider the workspace uses now with a one-token chat request (8 s timeout; no AI credit). A failure is ok: false with " +
      "the reason in error, never an error status",
    response: { description: "`{ ok, model, latencyMs, error? }`", schema: aiProviderTestSchema },
  }),
};
