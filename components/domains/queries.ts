"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { DomainView } from "@/lib/domains/domains";
import { fetchPlainPage } from "../mailboxes/api";

export function useDomains(page: number, limit: number) {
  return useQuery({
    queryKey: ["domains", { page, limit }],
    queryFn: ({ signal }) => fetchPlainPage<DomainView>(`/api/v1/domains?page=${page}&limit=${limit}`, signal),
    placeholderData: keepPreviousData,
  });
}
