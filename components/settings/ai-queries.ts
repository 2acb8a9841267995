import { useQuery } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import type { BodyOf, ResponseOf } from "@/lib/client";

/** Query keys of Settings → AI (the provider and the AI settings with this month's credits). */
export const aiKeys = { provider: ["ai-provider"] as const, settings: ["ai-settings"] as const };

export function useAiProvider(enabled = true) {
  return useQuery({
    queryKey: aiKeys.provider,
    queryFn: ({ signal }) => data(client.GET("/settings/ai-provider", { signal })),
    enabled,
  });
}

export function useAiSettings(enabled = true) {
  return useQuery({
    queryKey: aiKeys.settings,
    queryFn: ({ signal }) => data(client.GET("/ai-settings", { signal })),
    enabled,
  });
}

export type AiProviderSetting = ResponseOf<"/settings/ai-provider", "get">;
export type AiProviderBody = BodyOf<"/settings/ai-provider", "put">;
export type AiProviderTestResult = ResponseOf<"/settings/ai-provider/test", "post">;
export type AiSettings = ResponseOf<"/ai-settings", "get">;
export type AiSettingsPatch = BodyOf<"/ai-settings", "patch">;
