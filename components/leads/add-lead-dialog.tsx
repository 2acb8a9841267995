"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { LEAD_FIELDS, type LeadFieldKey, type LeadInput } from "./csv-mapping";
import { type CustomRow, CustomFieldsEditor, customFieldsOf } from "./custom-fields-editor";
import { useTags, useTimezoneNames } from "./queries";

type Form = Record<LeadFieldKey, string>;
const EMPTY: Form = Object.fromEntries(LEAD_FIELDS.map((f) => [f.key, ""])) as Form;

/** What became of the lead, as POST /leads answered for it (and the tags attached after). */
type Outcome =
  | { status: "created" | "updated"; id: string; email: string; warnings: string[]; tagError?: string }
  | { status: "suppressed"; email: string }
  | { status: "invalid"; message: string; fieldErrors: Record<string, string[]> };

/**
 * The lead as POST /leads takes it: blank fields are left out, so adding an address that exists
 * merges only what was filled in (an empty string would clear the lead's value).
 */
function leadOf(form: Form, custom: CustomRow[]): LeadInput {
  const lead: LeadInput = { email: form.email.trim() };
  for (const { key } of LEAD_FIELDS) if (key !== "email" && form[key].trim()) lead[key] = form[key].trim();
  const cf = customFieldsOf(custom);
  if (Object.keys(cf).length) lead.customFields = cf;
  return lead;
}

/** The API's field paths for the one lead sent (`leads.0.firstName`) as the form's (`firstName`). */
function ownFields(fieldErrors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^leads\.0\.?/, ""), v]));
}

/**
 * Adds one lead through POST /leads — the same rules as an import or an API call: an existing address
 * is merged, a suppressed one is skipped, a malformed one is refused — then attaches the picked tags.
 */
async function addLead(lead: LeadInput, tagIds: string[]): Promise<Outcome> {
  let r: Awaited<ReturnType<typeof post>>;
  try {
    r = await post(lead);
  } catch (e) {
    if (e instanceof ApiError && e.code === "VALIDATION_ERROR") {
      return { status: "invalid", message: e.message, fieldErrors: ownFields(e.fieldErrors) };
    }
    throw e;
  }
  const invalid = r.invalidEmails[0];
  if (invalid) return { status: "invalid", message: invalid.reason, fieldErrors: { email: [invalid.reason] } };
  if (r.suppressedEmails[0]) return { status: "suppressed", email: r.suppressedEmails[0] };
  const saved = r.leads[0];
  const outcome: Outcome = { status: saved.status, id: saved.id, email: saved.email, warnings: r.warnings.map((w) => w.message) };
  try {
    for (const tagId of tagIds) await data(client.POST("/leads/bulk-tag", { body: { leadIds: [saved.id], tagId } }));
  } catch (e) {
    outcome.tagError = describeError(e);
  }
  return outcome;
}

const post = (lead: LeadInput) => data(client.POST("/leads", { body: { leads: [lead] } }));

function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (outcome.status === "invalid") {
    return (
      <Alert tone="error">
        <span data-testid="add-lead-result">Not added: {outcome.message}</span>
      </Alert>
    );
  }
  if (outcome.status === "suppressed") {
    return (
      <Alert tone="warning">
        <span data-testid="add-lead-result">
          Not added: {outcome.email} is on the suppression list (the address or its whole domain). Suppressed addresses are never emailed
          nor added.
        </span>
      </Alert>
    );
  }
  return (
    <Alert tone="success" className="space-y-1">
      <p data-testid="add-lead-result">
        {outcome.status === "created"
          ? `Created ${outcome.email}.`
          : `${outcome.email} was already a lead: merged into it (only the fields filled in here changed).`}{" "}
        <Link href={`/leads/${outcome.id}`} className="font-medium underline">
          Open the lead
        </Link>
      </p>
      {outcome.warnings.map((w) => (
        <p key={w}>{w}</p>
      ))}
      {outcome.tagError && <p>Tags could not be attached: {outcome.tagError}</p>}
    </Alert>
  );
}

/** The add-lead form's fields, custom fields and picked tags, and the call that adds the lead. */
function useAddLead() {
  const queryClient = useQueryClient();
  const tags = useTags();
  const timezones = useTimezoneNames();
  const [form, setForm] = useState<Form>(EMPTY);
  const [custom, setCustom] = useState<CustomRow[]>([]);
  const [tagIds, setTagIds] = useState<string[]>([]);

  const add = useMutation({
    mutationFn: () => addLead(leadOf(form, custom), tagIds),
    onSuccess: async (o) => {
      if (o.status === "created" || o.status === "updated") {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ["leads"] }),
          queryClient.invalidateQueries({ queryKey: ["lead", o.id] }),
          queryClient.invalidateQueries({ queryKey: ["tags"] }),
        ]);
      }
    },
  });

  function reset() {
    setForm(EMPTY);
    setCustom([]);
    setTagIds([]);
    add.reset();
  }
  return { tags, timezones, form, setForm, custom, setCustom, tagIds, setTagIds, add, reset };
}

type AddLead = ReturnType<typeof useAddLead>;

/** Close and Add another once the lead is saved; Cancel and Add lead before. */
function AddLeadFooter({ lead, saved, close }: { lead: AddLead; saved: boolean; close: () => void }) {
  if (saved) {
    return (
      <>
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
        <Button onClick={lead.reset}>Add another</Button>
      </>
    );
  }
  return (
    <>
      <Button variant="secondary" onClick={close}>
        Cancel
      </Button>
      <Button type="submit" form="add-lead-form" disabled={lead.add.isPending || !lead.form.email.trim()}>
        {lead.add.isPending ? "Adding…" : "Add lead"}
      </Button>
    </>
  );
}

/** The lead's fields, its custom fields and the tags to attach. */
function AddLeadForm({
  lead,
  saved,
  fieldErrors,
  onSubmit,
}: {
  lead: AddLead;
  saved: boolean;
  fieldErrors: Record<string, string[]>;
  onSubmit: (e: FormEvent) => void;
}) {
  const { tags, timezones, form, setForm } = lead;
  return (
    <form id="add-lead-form" onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2" aria-label="Add lead">
      {LEAD_FIELDS.map(({ key, label }) => (
        <Field key={key} label={label} errors={fieldErrors[key]}>
          <Input
            name={key}
            // Text, not type=email: the API's address rules decide, and its message is shown here.
            inputMode={key === "email" ? "email" : undefined}
            autoComplete="off"
            required={key === "email"}
            disabled={saved}
            list={key === "timezone" ? "add-lead-timezones" : undefined}
            value={form[key]}
            onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
          />
        </Field>
      ))}
      <datalist id="add-lead-timezones">
        {timezones.data?.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <div className="sm:col-span-2">
        <CustomFieldsEditor rows={lead.custom} onChange={lead.setCustom} fieldErrors={fieldErrors} />
      </div>
      <div className="sm:col-span-2">
        {tags.data && tags.data.length > 0 ? (
          <CheckboxGroup
            legend="Tags"
            options={tags.data.map((t) => ({ value: t.id, label: t.name }))}
            value={lead.tagIds}
            onChange={lead.setTagIds}
          />
        ) : (
          <p className="text-sm text-gray-600">No tags yet: tags made on a lead or in Settings can be picked here.</p>
        )}
      </div>
    </form>
  );
}

export function AddLeadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const lead = useAddLead();
  const { add } = lead;

  function close() {
    lead.reset();
    onClose();
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate();
  }

  const outcome = add.data;
  const saved = outcome?.status === "created" || outcome?.status === "updated";
  const fieldErrors = outcome?.status === "invalid" ? outcome.fieldErrors : {};
  return (
    <Dialog open={open} onClose={close} title="Add lead" wide footer={<AddLeadFooter lead={lead} saved={saved} close={close} />}>
      <div className="space-y-4">
        <p className="text-sm text-gray-600">
          An address that is already a lead is merged into it: only the fields filled in here change. Suppressed addresses are not added.
        </p>
        {outcome && <OutcomeAlert outcome={outcome} />}
        {add.error && <Alert tone="error">{describeError(add.error)}</Alert>}
        <AddLeadForm lead={lead} saved={saved} fieldErrors={fieldErrors} onSubmit={submit} />
      </div>
    </Dialog>
  );
}
