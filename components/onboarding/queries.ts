"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { client, data } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import type { ResponseOf } from "@/lib/client";

export type Onboarding = ResponseOf<"/onboarding", "get">;
export type OnboardingItem = Onboarding["items"][number];

const KEY = ["onboarding"];

/**
 * The checklist of the current workspace, for members and up (a client seat never asks). Every item is
 * read from the server, so it is asked again whenever anything in the dashboard changed something
 * (any successful mutation) and when the window regains focus (work done through the API or elsewhere).
 */
export function useOnboarding() {
  const enabled = useCan("member");
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return queryClient.getMutationCache().subscribe((e) => {
      if (e.type === "updated" && e.action.type === "success" && !isOnboardingMutation(e.mutation.options.mutationKey))
        void queryClient.invalidateQueries({ queryKey: KEY });
    });
  }, [enabled, queryClient]);
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => data(client.GET("/onboarding", { signal })),
    enabled,
    staleTime: 0,
  });
}

const isOnboardingMutation = (key: readonly unknown[] | undefined) => key?.[0] === KEY[0];

/** Hide (true) or bring back (false) the checklist; the answer is the checklist itself. */
export function useSetDismissed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: KEY,
    mutationFn: (dismissed: boolean) => data(dismissed ? client.POST("/onboarding/dismiss") : client.DELETE("/onboarding/dismiss")),
    onSuccess: (o) => queryClient.setQueryData(KEY, o),
  });
}
