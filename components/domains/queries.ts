"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client, plainPage } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

/** A domain with its checks, from the client generated from the OpenAPI document. */
export type DomainView = ResponseOf<"/domains/{id}", "get">;

export function useDomains(page: number, limit: number) {
  return useQuery({
    queryKey: ["domains", { page, limit }],
    queryFn: ({ signal }) => plainPage(client.GET("/domains", { params: { query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
  });
}
