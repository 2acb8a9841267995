"use client";

import { describeError } from "@/components/api-client";
import { Field, Select } from "@/components/ui/input";
import { useTrackingDomains } from "@/components/settings/tracking-domain-queries";
import type { SettingsFormState } from "./use-settings-form";

/**
 * Where the campaign's open pixel, click redirects and unsubscribe links point: the workspace's default
 * tracking domain (else the shared host), or one of its VERIFIED domains. A chosen domain that is no
 * longer verified stays selectable, marked as not in use (the default is used meanwhile).
 */
export function TrackingDomainField({ s }: { s: SettingsFormState }) {
  const { form, set, fe } = s;
  const domains = useTrackingDomains();
  const list = domains.data ?? [];
  const def = list.find((d) => d.isDefault && d.status === "VERIFIED");
  const chosen = list.find((d) => d.id === form.trackingDomainId);
  const verified = list.filter((d) => d.status === "VERIFIED");
  return (
    <Field
      label="Tracking domain"
      errors={fe.trackingDomainId}
      hint={
        domains.error
          ? `Could not load the tracking domains: ${describeError(domains.error)}`
          : "The host of the open pixel, click redirects and unsubscribe links. Settings → Tracking domains adds your own."
      }
    >
      <Select value={form.trackingDomainId} onChange={(e) => set("trackingDomainId", e.target.value)}>
        <option value="">{def ? `Workspace default (${def.domain})` : "Workspace default (the shared host)"}</option>
        {verified.map((d) => (
          <option key={d.id} value={d.id}>
            {d.domain}
          </option>
        ))}
        {form.trackingDomainId && chosen?.status !== "VERIFIED" && (
          <option value={form.trackingDomainId}>{chosen ? `${chosen.domain} (${chosen.status}: not in use)` : "A deleted domain"}</option>
        )}
      </Select>
    </Field>
  );
}
