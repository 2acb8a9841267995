"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";
import type { WarmupSettingsInput } from "@/lib/warmup/schemas";

/** The warmup routes of a mailbox and GET /deliverability/mailboxes/<id> (its warmup part), for the dashboard. */

export type WarmupStatus = ResponseOf<"/mailboxes/{id}", "get">["warmupStatus"];
export type Presets = ResponseOf<"/warmup/presets", "get">["presets"];
export type PresetClass = keyof Presets;

/** The provider classes a preset is kept for, as the dashboard names them. */
export const PRESET_NAMES: Record<PresetClass, string> = { GOOGLE: "Google", MICROSOFT: "Microsoft", OTHER: "Other providers" };

/** The mailbox deliverability report; the warmup panel reads its `warmupStatus` and `warmup` (with the 30-day `daily` series). */
export type WarmupReport = ResponseOf<"/deliverability/mailboxes/{id}", "get">;

export type BulkResumeResult = ResponseOf<"/mailboxes/bulk-resume-warmup", "post">;

/** Warming: the statuses in which warmup mail goes out (EARLY, RAMPING, STEADY). */
export const isWarming = (s: WarmupStatus) => s === "EARLY" || s === "RAMPING" || s === "STEADY";

const REFRESH_MS = 30_000;

export const warmupKeys = {
  report: (mailboxId: string) => ["warmup", "report", mailboxId] as const,
  presets: ["warmup", "presets"] as const,
};

export function useWarmupReport(mailboxId: string) {
  return useQuery({
    queryKey: warmupKeys.report(mailboxId),
    queryFn: ({ signal }) => data(client.GET("/deliverability/mailboxes/{id}", { params: { path: { id: mailboxId } }, signal })),
    refetchInterval: REFRESH_MS,
  });
}

export function useWarmupPresets() {
  return useQuery({
    queryKey: warmupKeys.presets,
    queryFn: ({ signal }) => data(client.GET("/warmup/presets", { signal })).then((r) => r.presets),
  });
}

export type WarmupAction =
  | { kind: "start"; settings?: WarmupSettingsInput }
  | { kind: "stop" }
  | { kind: "resume" }
  | { kind: "patch"; settings: WarmupSettingsInput };

function runAction(mailboxId: string, a: WarmupAction): Promise<unknown> {
  const params = { path: { id: mailboxId } };
  switch (a.kind) {
    // `{}` asks for the preset, then the defaults.
    case "start":
      return data(client.POST("/mailboxes/{id}/start-warmup", { params, body: a.settings ?? {} }));
    case "stop":
      return data(client.POST("/mailboxes/{id}/stop-warmup", { params }));
    case "resume":
      return data(client.POST("/mailboxes/{id}/resume-warmup", { params }));
    case "patch":
      return data(client.PATCH("/mailboxes/{id}/warmup", { params, body: a.settings }));
  }
}

/**
 * Start, stop, resume or change one mailbox's warmup. The mutation stays pending until the table and
 * the panel have the new state, so a switch never flips back for a moment.
 */
export function useWarmupAction(mailboxId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: WarmupAction) => runAction(mailboxId, a),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["mailboxes"] }),
        queryClient.invalidateQueries({ queryKey: warmupKeys.report(mailboxId) }),
      ]),
  });
}

export function bulkResumeWarmup(mailboxIds: string[]): Promise<BulkResumeResult> {
  return data(client.POST("/mailboxes/bulk-resume-warmup", { body: { mailboxIds } }));
}

export function putPreset(cls: PresetClass, settings: WarmupSettingsInput): Promise<{ presets: Presets }> {
  return data(client.PUT("/warmup/presets/{class}", { params: { path: { class: cls } }, body: settings }));
}
