"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input, Select } from "@/components/ui/input";
import type { BodyOf } from "@/lib/client";
import { VERIFICATION_STATUSES } from "@/lib/leads/schemas";
import { LEAD_FIELDS, type LeadFieldKey } from "./csv-mapping";
import { type CustomRow, CustomFieldsEditor, customFieldsOf, customRow } from "./custom-fields-editor";
import { LeadTags } from "./lead-tags";
import { type LeadView, useLead, useTimezoneNames } from "./queries";

type PatchLeadInput = BodyOf<"/leads/{id}", "patch">;

type Form = Record<LeadFieldKey, string> & { verificationStatus: LeadView["verificationStatus"] };

function formOf(lead: LeadView): Form {
  const f = { verificationStatus: lead.verificationStatus } as Form;
  for (const { key } of LEAD_FIELDS) f[key] = lead[key] ?? "";
  return f;
}

/**
 * Only what changed is sent: PATCH changes only the sent fields, an emptied field is sent as ""
 * which clears it, and a removed custom field is sent as null.
 */
function changes(lead: LeadView, form: Form, custom: CustomRow[]): PatchLeadInput {
  const body: Record<string, unknown> = {};
  for (const { key } of LEAD_FIELDS) if (form[key].trim() !== (lead[key] ?? "")) body[key] = form[key].trim();
  if (form.verificationStatus !== lead.verificationStatus) body.verificationStatus = form.verificationStatus;
  const next = new Map(Object.entries(customFieldsOf(custom)));
  const cf: Record<string, string | null> = {};
  for (const k of Object.keys(lead.customFields)) if (!next.has(k)) cf[k] = null;
  for (const [k, v] of next) if (lead.customFields[k] !== v) cf[k] = v;
  if (Object.keys(cf).length) body.customFields = cf;
  return body as PatchLeadInput;
}

export function LeadEditDialog({ lead: initial, onClose }: { lead: LeadView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { data: lead } = useLead(initial);
  const timezones = useTimezoneNames();
  const [form, setForm] = useState<Form>(() => formOf(initial));
  const [custom, setCustom] = useState<CustomRow[]>(() =>
    Object.entries(initial.customFields).map(([key, value]) => customRow(key, value)),
  );

  const save = useMutation({
    mutationFn: (body: PatchLeadInput) => data(client.PATCH("/leads/{id}", { params: { path: { id: lead.id } }, body })),
    onSuccess: async (updated) => {
      queryClient.setQueryData(["lead", updated.id], updated);
      await queryClient.invalidateQueries({ queryKey: ["leads"] });
      onClose();
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = changes(lead, form, custom);
    if (Object.keys(body).length === 0) return onClose();
    save.mutate(body);
  }

  const err = save.error;
  const fieldErrors = err instanceof ApiError ? err.fieldErrors : {};

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit ${lead.email}`}
      wide
      footer={<FormFooter form="lead-edit-form" pending={save.isPending} onCancel={onClose} />}
    >
      <div className="space-y-5">
        {err && <Alert tone="error">{err.message}</Alert>}
        <form id="lead-edit-form" onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
          {LEAD_FIELDS.map(({ key, label }) => (
            <Field key={key} label={label} errors={fieldErrors[key]}>
              <Input
                name={key}
                type={key === "email" ? "email" : "text"}
                required={key === "email"}
                list={key === "timezone" ? "lead-timezones" : undefined}
                value={form[key]}
                onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
              />
            </Field>
          ))}
          <datalist id="lead-timezones">
            {timezones.data?.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <Field label="Verification status" errors={fieldErrors.verificationStatus}>
            <Select
              value={form.verificationStatus}
              onChange={(e) => setForm((f) => ({ ...f, verificationStatus: e.target.value as Form["verificationStatus"] }))}
            >
              {VERIFICATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </Field>
          <div className="sm:col-span-2">
            <CustomFieldsEditor rows={custom} onChange={setCustom} fieldErrors={fieldErrors} />
          </div>
        </form>
        <LeadTags lead={lead} />
      </div>
    </Dialog>
  );
}
