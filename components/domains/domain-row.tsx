"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { SelectTd } from "@/components/ui/selectable-table";
import { Td, Tr } from "@/components/ui/table";
import { ago, dateTime } from "@/components/ui/time";
import type { DomainView } from "./queries";
import { CHECKS, checkOf, DOMAIN_COLUMNS, STATUS } from "./checks";

/**
 * One domain: a badge per check (its reason on hover), and a details row with each record and reason
 * in full, since a reason is the fix and a tooltip is unreachable by keyboard and touch.
 */
export function DomainRow({ domain: d, selected, onToggle }: { domain: DomainView; selected: boolean; onToggle: () => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const check = useMutation({
    mutationFn: () => data(client.POST("/domains/{id}/check", { params: { path: { id: d.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["domains"] }),
  });
  const detailsId = `domain-details-${d.id}`;

  return (
    <>
      <Tr>
        <SelectTd label={d.domain} checked={selected} onToggle={onToggle} />
        <Td className="font-medium">{d.domain}</Td>
        {CHECKS.map((c) => {
          const r = checkOf(d, c);
          const s = STATUS[r.status];
          return (
            <Td key={c.key}>
              <span title={r.reason} data-testid={`check-${c.key}`} data-status={r.status}>
                <Badge tone={s.tone}>{s.label}</Badge>
              </span>
            </Td>
          );
        })}
        <Td className="tabular-nums">{d.mailboxes}</Td>
        <Td className="whitespace-nowrap text-gray-600" title={dateTime(d.lastCheckedAt)}>
          {d.lastCheckedAt ? ago(d.lastCheckedAt) : "Never"}
        </Td>
        <Td className="text-right whitespace-nowrap">
          <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((o) => !o)}>
            {open ? "Hide details" : "Details"}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={check.isPending}
            aria-label={`Re-check ${d.domain}`}
            onClick={() => check.mutate()}
          >
            {check.isPending ? "Checking…" : "Re-check"}
          </Button>
        </Td>
      </Tr>
      {check.error && (
        <tr>
          <td colSpan={DOMAIN_COLUMNS} className="px-3 pb-2">
            <Alert tone="error">
              Re-check of {d.domain} failed: {describeError(check.error)}
            </Alert>
          </td>
        </tr>
      )}
      {open && (
        <tr id={detailsId} className="bg-gray-50/60">
          <td colSpan={DOMAIN_COLUMNS} className="px-3 py-3">
            <DomainDetails domain={d} />
          </td>
        </tr>
      )}
    </>
  );
}

function DomainDetails({ domain: d }: { domain: DomainView }) {
  return (
    <div className="space-y-3">
      <dl className="space-y-2 text-sm" aria-label={`Checks of ${d.domain}`}>
        {CHECKS.map((c) => {
          const r = checkOf(d, c);
          const s = STATUS[r.status];
          return (
            <div key={c.key} className="grid grid-cols-[7rem_1fr] gap-2">
              <dt className="flex items-start gap-2 font-medium text-gray-800">
                {c.label} <Badge tone={s.tone}>{s.label}</Badge>
              </dt>
              <dd className="space-y-0.5 text-gray-700">
                <p>{r.reason || "—"}</p>
                {r.record && <p className="font-mono text-xs break-all text-gray-600">{r.record}</p>}
                {r.listings.length > 0 && (
                  <ul className="list-disc pl-5 text-xs">
                    {r.listings.map((l) => (
                      <li key={`${l.zone}-${l.target}`}>
                        {l.target} on {l.zone} ({l.answer})
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <DkimSelectors domain={d} />
    </div>
  );
}

/** PATCH /domains/<id> `{ dkimSelectors }`: selectors to look for besides the providers' usual ones. */
function DkimSelectors({ domain: d }: { domain: DomainView }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(d.dkimSelectors.join(", "));
  const save = useMutation({
    mutationFn: (dkimSelectors: string[]) =>
      data(client.PATCH("/domains/{id}", { params: { path: { id: d.id } }, body: { dkimSelectors } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["domains"] }),
  });
  const fieldErrors = save.error instanceof ApiError ? Object.values(save.error.fieldErrors).flat() : [];

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate(value.split(/[\s,]+/).filter(Boolean));
  }

  return (
    <form onSubmit={submit} className="flex max-w-xl items-end gap-2">
      <div className="flex-1">
        <Field label="Extra DKIM selectors" errors={fieldErrors} hint="Comma-separated; used from the next check.">
          <Input value={value} onChange={(e) => setValue(e.target.value)} placeholder="e.g. s1, mail2024" />
        </Field>
      </div>
      <Button type="submit" variant="secondary" disabled={save.isPending} className="mb-5">
        {save.isPending ? "Saving…" : "Save selectors"}
      </Button>
      {save.error && fieldErrors.length === 0 && <Alert tone="error">{save.error.message}</Alert>}
    </form>
  );
}
