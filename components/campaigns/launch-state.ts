"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { hardBlockers } from "./launch-rules";
import { useCampaignChanged, useLaunchCheck } from "./queries";
import type { Campaign, LaunchReport } from "./types";

/** The report a 409 LAUNCH_NEEDS_CONFIRMATION carries next to `error` and `code`. */
function reportOf(e: unknown): LaunchReport | undefined {
  if (!(e instanceof ApiError) || e.code !== "LAUNCH_NEEDS_CONFIRMATION") return undefined;
  const b = e.body as Partial<LaunchReport>;
  return Array.isArray(b.blockers) && Array.isArray(b.warnings)
    ? { ready: !!b.ready, blockers: b.blockers, warnings: b.warnings }
    : undefined;
}

/**
 * The launch dialog's state: the launch check, and the PATCH status ACTIVE that may come back 409 with the
 * server's own report, after which only a call with confirm: true can launch.
 */
export function useLaunch(campaign: Campaign, onLaunched: (c: Campaign) => void) {
  const changed = useCampaignChanged(campaign.id);
  const check = useLaunchCheck(campaign.id, true);
  const [confirmReport, setConfirmReport] = useState<LaunchReport>();
  const launch = useMutation({
    mutationFn: (confirm: boolean) =>
      data(
        client.PATCH("/campaigns/{id}/status", {
          params: { path: { id: campaign.id } },
          body: { status: "ACTIVE", ...(confirm ? { confirm } : {}) },
        }),
      ),
    onSuccess: (c) => {
      changed(c);
      onLaunched(c);
    },
    onError: (e) => setConfirmReport(reportOf(e)),
  });
  // After a 409 the server's own report is the one that counts: it was made at the moment of the launch.
  const report = confirmReport ?? check.data;
  const blocked = hardBlockers(report?.blockers ?? []).length > 0;
  const needsConfirm = !!confirmReport && !blocked;
  return { check, launch, confirmReport, report, blocked, needsConfirm };
}

export type LaunchState = ReturnType<typeof useLaunch>;
