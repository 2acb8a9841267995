"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client, plainPage } from "@/components/api-client";

export function useDomains(page: number, limit: number) {
  return useQuery({
    queryKey: ["domains", { page, limit }],
    queryFn: ({ signal }) => plainPage(client.GET("/domains", { params: { query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
  });
}
