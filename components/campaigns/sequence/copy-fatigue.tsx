"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ResponseOf } from "@/lib/client";
import { keys } from "../queries";

/** GET /campaigns/<id>/copy-fatigue: each step's verdict and when the copy was last scanned. */
export type FatigueList = ResponseOf<"/campaigns/{id}/copy-fatigue", "get">;
/** A step's copy-fatigue verdict. */
export type FatigueRow = FatigueList["steps"][number];
/** POST …/copy-fatigue/<stepId>/apply: the rewritten copy for the editor. */
export type Rewrite = ResponseOf<"/campaigns/{id}/copy-fatigue/{stepId}/apply", "post">;

const fatigueKey = (campaignId: string) => keys.part(campaignId, "copy-fatigue");

export function useCopyFatigue(campaignId: string) {
  return useQuery({
    queryKey: fatigueKey(campaignId),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/copy-fatigue", { params: { path: { id: campaignId } }, signal })),
  });
}

/** "Scan now" and when the copy was last checked, above the sequence. */
export function CopyFatigueBar({ campaignId, list }: { campaignId: string; list?: FatigueList }) {
  const queryClient = useQueryClient();
  const scan = useMutation({
    mutationFn: () => data(client.POST("/campaigns/{id}/copy-fatigue/scan", { params: { path: { id: campaignId } } })),
    onSuccess: (data) => queryClient.setQueryData(fatigueKey(campaignId), data),
  });
  const flagged = list?.steps.filter((s) => s.status === "FATIGUED").length ?? 0;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-gray-600">
      <span data-testid="copy-fatigue-summary">
        Copy fatigue: {flagged ? `${flagged} flagged` : "nothing flagged"}
        {list?.lastScanAt && <> · checked {new Date(list.lastScanAt).toLocaleString()}</>}
      </span>
      <Button variant="secondary" size="sm" disabled={scan.isPending} onClick={() => scan.mutate()}>
        {scan.isPending ? "Scanning…" : "Scan copy now"}
      </Button>
      {scan.error && <Alert tone="error">Could not scan: {describeError(scan.error)}</Alert>}
    </div>
  );
}

const pct = (r: number | null) => (r === null ? "–" : `${(r * 100).toFixed(1)}%`);

/**
 * A fatigued step's flag: why, the numbers, Dismiss (kept until the copy changes or a new reason) and
 * "Suggest a rewrite" (apply: the rewrite fills the editor; nothing is saved until the user saves).
 */
export function FatigueFlag({
  campaignId,
  title,
  row,
  onRewrite,
}: {
  campaignId: string;
  title: string;
  row: FatigueRow;
  onRewrite: (r: Rewrite) => void;
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: fatigueKey(campaignId) });
  const params = { path: { id: campaignId, stepId: row.stepId } };
  const dismiss = useMutation({
    mutationFn: () => data(client.POST("/campaigns/{id}/copy-fatigue/{stepId}/dismiss", { params })),
    onSuccess: refresh,
  });
  const apply = useMutation({
    mutationFn: () => data(client.POST("/campaigns/{id}/copy-fatigue/{stepId}/apply", { params })),
    onSuccess: (r) => {
      onRewrite(r);
      void refresh();
    },
  });
  const error = dismiss.error ?? apply.error;
  return (
    <div
      role="status"
      aria-label={`Copy fatigue: ${title}`}
      className="space-y-2 rounded-md border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="yellow">Copy fatigue</Badge>
        <span className="text-gray-800">{row.reason}</span>
      </div>
      <p className="text-xs text-gray-600">
        {row.sends.toLocaleString()} sends to {row.leads.toLocaleString()} leads · first 200: {pct(row.firstRate)} replies · latest 200:{" "}
        {pct(row.recentRate)}
      </p>
      {row.suggestion && <p className="text-gray-700">{row.suggestion}</p>}
      <div className="flex gap-2">
        <Button size="sm" disabled={apply.isPending} onClick={() => apply.mutate()}>
          {apply.isPending ? "Writing…" : "Suggest a rewrite"}
        </Button>
        <Button size="sm" variant="ghost" disabled={dismiss.isPending} onClick={() => dismiss.mutate()}>
          Dismiss
        </Button>
      </div>
      {error && <Alert tone="error">{describeError(error)}</Alert>}
    </div>
  );
}
