"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { MailboxView, WarmupView } from "@/lib/mailboxes/schemas";
import type { WarmupSettings } from "@/lib/warmup/ramp";
import type { WarmupSettingsInput } from "@/lib/warmup/schemas";
import type { WarmupDay } from "./chart-rows";

/** Spec 4.11's warmup routes and GET /deliverability/mailboxes/<id> (its warmup part), for the dashboard. */

export type WarmupStatus = MailboxView["warmupStatus"];
export type PresetClass = "GOOGLE" | "MICROSOFT" | "OTHER";
export type Presets = Record<PresetClass, Partial<WarmupSettings> | null>;

/** The provider classes a preset is kept for, as the dashboard names them. */
export const PRESET_NAMES: Record<PresetClass, string> = { GOOGLE: "Google", MICROSOFT: "Microsoft", OTHER: "Other providers" };

/** The part of the mailbox deliverability report the warmup panel reads (lib/api/contracts/deliverability.ts). */
export interface WarmupReport {
  warmupStatus: WarmupStatus;
  warmup: (WarmupView & { daily: WarmupDay[] }) | null;
}

export interface BulkResumeResult {
  resumed: string[];
  skipped: { mailboxId: string; email: string | null; reason: string }[];
}

/** Warming: the statuses in which warmup mail goes out (decisions: EARLY, RAMPING, STEADY). */
export const isWarming = (s: WarmupStatus) => s === "EARLY" || s === "RAMPING" || s === "STEADY";

const REFRESH_MS = 30_000;
const mailboxPath = (id: string) => `/api/v1/mailboxes/${encodeURIComponent(id)}`;

export const warmupKeys = {
  report: (mailboxId: string) => ["warmup", "report", mailboxId] as const,
  presets: ["warmup", "presets"] as const,
};

export function useWarmupReport(mailboxId: string) {
  return useQuery({
    queryKey: warmupKeys.report(mailboxId),
    queryFn: ({ signal }) => apiFetch<WarmupReport>(`/api/v1/deliverability/mailboxes/${encodeURIComponent(mailboxId)}`, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

export function useWarmupPresets() {
  return useQuery({
    queryKey: warmupKeys.presets,
    queryFn: ({ signal }) => apiFetch<{ presets: Presets }>("/api/v1/warmup/presets", { signal }).then((r) => r.presets),
  });
}

export type WarmupAction =
  | { kind: "start"; settings?: WarmupSettingsInput }
  | { kind: "stop" }
  | { kind: "resume" }
  | { kind: "patch"; settings: WarmupSettingsInput };

function runAction(mailboxId: string, a: WarmupAction): Promise<unknown> {
  const base = mailboxPath(mailboxId);
  switch (a.kind) {
    // The route refuses an empty body: `{}` asks for the preset, then the defaults.
    case "start":
      return apiFetch(`${base}/start-warmup`, { method: "POST", body: a.settings ?? {} });
    case "stop":
      return apiFetch(`${base}/stop-warmup`, { method: "POST" });
    case "resume":
      return apiFetch(`${base}/resume-warmup`, { method: "POST" });
    case "patch":
      return apiFetch(`${base}/warmup`, { method: "PATCH", body: a.settings });
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
  return apiFetch<BulkResumeResult>("/api/v1/mailboxes/bulk-resume-warmup", { method: "POST", body: { mailboxIds } });
}

export function putPreset(cls: PresetClass, settings: WarmupSettingsInput): Promise<{ presets: Presets }> {
  return apiFetch<{ presets: Presets }>(`/api/v1/warmup/presets/${cls}`, { method: "PUT", body: settings });
}
