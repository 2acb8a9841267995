"use client";

import { keepPreviousData, useQuery, type QueryClient } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import type { DeliveryStatus } from "./types";

export const WEBHOOKS_KEY = ["webhooks"] as const;

/** The path parameters of /webhooks/{id}/…. */
export const webhookParams = (id: string) => ({ path: { id } });

export function useWebhooks() {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, "list"],
    queryFn: ({ signal }) => data(client.GET("/webhooks", { signal })).then((r) => r.webhooks),
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, "one", id],
    queryFn: ({ signal }) => data(client.GET("/webhooks/{id}", { params: { path: { id } }, signal })),
  });
}

export interface DeliveryFilters {
  page: number;
  limit: number;
  status: DeliveryStatus | "";
}

export function useDeliveries(webhookId: string, f: DeliveryFilters) {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, "deliveries", webhookId, f],
    queryFn: ({ signal }) => {
      const query = { page: f.page, limit: f.limit, ...(f.status ? { status: f.status } : {}) };
      return data(client.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhookId }, query }, signal }));
    },
    placeholderData: keepPreviousData,
    // Pending deliveries are retried in the background: look again soon while there are any.
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === "PENDING") ? 3_000 : 15_000),
  });
}

/** After any change: the list, the one webhook and its log are all looked up again. */
export function refreshWebhooks(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
}
