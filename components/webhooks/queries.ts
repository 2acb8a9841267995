"use client";

import { keepPreviousData, useQuery, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { DeliveryPage, DeliveryStatus, WebhookView } from "./types";

export const WEBHOOKS_KEY = ["webhooks"] as const;

export function webhookPath(id: string, rest = ""): string {
  return `/api/v1/webhooks/${encodeURIComponent(id)}${rest}`;
}

export function useWebhooks() {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, "list"],
    queryFn: ({ signal }) => apiFetch<{ webhooks: WebhookView[] }>("/api/v1/webhooks", { signal }).then((r) => r.webhooks),
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, "one", id],
    queryFn: ({ signal }) => apiFetch<WebhookView>(webhookPath(id), { signal }),
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
      const p = new URLSearchParams({ page: String(f.page), limit: String(f.limit) });
      if (f.status) p.set("status", f.status);
      return apiFetch<DeliveryPage>(webhookPath(webhookId, `/deliveries?${p}`), { signal });
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
