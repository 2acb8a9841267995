"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";

const KEY = ["settings", "engagement"] as const;

/**
 * Settings → Workspace → Opens and clicks: people only (the default: Apple's privacy prefetch and
 * security scanners are shown beside the numbers, not in them) or every hit. Owners and admins change it;
 * everyone sees it.
 */
export function EngagementCounting() {
  const qc = useQueryClient();
  const canChange = useCan("admin");
  const setting = useQuery({ queryKey: KEY, queryFn: () => data(client.GET("/settings/engagement")) });
  const save = useMutation({
    mutationFn: (countMachineEngagement: boolean) => data(client.PUT("/settings/engagement", { body: { countMachineEngagement } })),
    onSuccess: (v) => qc.setQueryData(KEY, v),
  });
  const value = setting.data?.countMachineEngagement;
  return (
    <section aria-label="Opens and clicks" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div>
        <h2 className="text-sm font-semibold text-gray-900">Opens and clicks</h2>
        <p className="text-sm text-gray-600">
          Apple Mail fetches every tracking pixel on delivery, and security gateways follow every link within seconds of arrival. By default
          only people&apos;s opens and clicks are counted; machines&apos; are shown beside them.
        </p>
      </div>
      {setting.error && <Alert tone="error">Could not load the setting: {describeError(setting.error)}</Alert>}
      {value !== undefined && (
        <label className="flex items-start gap-2 text-sm text-gray-800">
          <input
            type="checkbox"
            className="mt-0.5"
            checked={value}
            disabled={!canChange || save.isPending}
            onChange={(e) => save.mutate(e.target.checked)}
          />
          <span>
            Count every hit, machines&apos; too
            <span className="block text-xs text-gray-500">
              Inflates open and click rates the way most trackers do; applies to hits from now on.
              {!canChange && " Only an owner or admin can change it."}
            </span>
          </span>
        </label>
      )}
      {save.error && <Alert tone="error">{describeError(save.error)}</Alert>}
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
    </section>
  );
}
