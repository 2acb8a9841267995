import { useQuery } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

export type TrackingDomain = ResponseOf<"/settings/tracking-domains", "get">["domains"][number];

export const trackingDomainKeys = { list: ["tracking-domains"] as const };

/** The workspace's tracking domains (Settings → Tracking domains and the campaign settings' select). */
export function useTrackingDomains() {
  return useQuery({
    queryKey: trackingDomainKeys.list,
    queryFn: ({ signal }) => data(client.GET("/settings/tracking-domains", { signal })).then((r) => r.domains),
  });
}
