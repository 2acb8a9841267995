"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { keys } from "../queries";
import type { Campaign } from "../types";
import { useActivity } from "./queries";
import type { EmailStatus } from "./types";

export type ActivityFilter = { page: number; limit: number; status?: EmailStatus };

/**
 * The activity log's page, size and status filter, and its rows (polled while the campaign is active). When
 * the log shows new emails under the same filter, the campaign's stats are fetched again at once.
 */
export function useActivityView(campaign: Campaign) {
  const live = campaign.status === "ACTIVE";
  const [f, setF] = useState<ActivityFilter>({ page: 1, limit: 50 });
  const activity = useActivity(campaign.id, f, live);
  // While a new filter loads, the previous rows stay on screen (marked busy) but not as this filter's answer.
  const current = activity.data && !activity.isPlaceholderData ? activity.data : undefined;
  const rows = activity.data?.emails ?? [];
  const total = activity.data?.total ?? 0;

  // New emails in the log: the stats (the page header, the Overview) follow at once, not at their next tick.
  const queryClient = useQueryClient();
  const seen = useRef<string>(undefined);
  const signature = current ? `${f.status ?? ""}:${current.total}:${current.emails.map((e) => e.status).join()}` : undefined;
  useEffect(() => {
    if (signature === undefined) return;
    const sameView = seen.current?.split(":")[0] === signature.split(":")[0];
    if (sameView && seen.current !== signature) void queryClient.invalidateQueries({ queryKey: keys.part(campaign.id, "stats") });
    seen.current = signature;
  }, [signature, campaign.id, queryClient]);

  return { live, f, setF, activity, current, rows, total };
}

export type ActivityView = ReturnType<typeof useActivityView>;
