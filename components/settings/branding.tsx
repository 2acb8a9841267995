"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { useCan, useMember } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { type BrandedReport, type BrandingFields, BrandingPreview } from "./branding-preview";
import { SettingsNav } from "./settings-nav";
import { ColorPicker } from "./tags-color";

interface Form {
  name: string;
  logoUrl: string;
  primaryColor: string;
  accentColor: string;
  footerText: string;
}

const formOf = (b: BrandingFields): Form => ({
  name: b.name,
  logoUrl: b.logoUrl ?? "",
  primaryColor: b.primaryColor ?? "",
  accentColor: b.accentColor ?? "",
  footerText: b.footerText ?? "",
});

/** The body of PUT /settings/branding: every field sent, an empty one as null (cleared; the name then defaults to the workspace's). */
const bodyOf = (f: Form) => ({
  name: f.name.trim() || null,
  logoUrl: f.logoUrl.trim() || null,
  primaryColor: f.primaryColor || null,
  accentColor: f.accentColor || null,
  footerText: f.footerText.trim() || null,
});

type Body = ReturnType<typeof bodyOf>;

/** Only the fields that differ from the saved branding (an untouched default name stays a default). */
function changesOf(f: Form, saved: BrandingFields): Partial<Body> {
  const before = bodyOf(formOf(saved));
  return Object.fromEntries(Object.entries(bodyOf(f)).filter(([k, v]) => v !== before[k as keyof Body]));
}

/** What the preview paints with: the form as typed (the name falls back to the saved one while empty). */
const previewOf = (f: Form, saved: BrandingFields): BrandingFields => ({
  name: f.name.trim() || saved.name,
  logoUrl: /^https?:\/\/\S+$/.test(f.logoUrl.trim()) ? f.logoUrl.trim() : null,
  primaryColor: f.primaryColor || null,
  accentColor: f.accentColor || null,
  footerText: f.footerText.trim() || null,
});

const PERIODS = [7, 30, 90] as const;

function useBranding() {
  return useQuery({
    queryKey: ["branding"],
    queryFn: ({ signal }) => data(client.GET("/settings/branding", { signal })).then((r) => r.branding),
  });
}

function useBrandedReport(days: number) {
  return useQuery({
    queryKey: ["branded-report", days],
    queryFn: ({ signal }) => data(client.GET("/reports/branded", { params: { query: { days } }, signal })),
  });
}

function ReportPicker({
  days,
  onDays,
  campaignId,
  onCampaign,
  report,
}: {
  days: number;
  onDays: (d: number) => void;
  campaignId: string;
  onCampaign: (id: string) => void;
  report?: BrandedReport;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <Field label="Report for">
        <Select value={campaignId} onChange={(e) => onCampaign(e.target.value)}>
          <option value="">All campaigns (the workspace)</option>
          {report?.campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Period">
        <Select value={String(days)} onChange={(e) => onDays(Number(e.target.value))}>
          {PERIODS.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}

function BrandingEditor({ saved, canEdit }: { saved: BrandingFields; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const save = useMutation({
    mutationFn: () => data(client.PUT("/settings/branding", { body: changesOf(form, saved) })),
    onSuccess: (r) => {
      queryClient.setQueryData(["branding"], r.branding);
      setForm(formOf(r.branding));
      return queryClient.invalidateQueries({ queryKey: ["branded-report"] });
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const set = (patch: Partial<Form>) => {
    save.reset();
    setForm((f) => ({ ...f, ...patch }));
  };
  const dirty = Object.keys(changesOf(form, saved)).length > 0;

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <form onSubmit={submit} className="min-w-0 space-y-4 rounded-lg border border-gray-200 bg-white p-4" noValidate>
        <h2 className="text-sm font-semibold text-gray-900">Report branding</h2>
        {!canEdit && <Alert tone="info">Only owners and admins can change the branding. You can see it and preview the report.</Alert>}
        <BrandingFieldset form={form} set={set} fieldErrors={fieldErrors} canEdit={canEdit} />
        {save.error && Object.keys(fieldErrors).length === 0 && <Alert tone="error">{describeError(save.error)}</Alert>}
        {save.isSuccess && !dirty && <Alert tone="success">Branding saved.</Alert>}
        {canEdit && (
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" disabled={save.isPending || !dirty}>
              {save.isPending ? "Saving…" : "Save branding"}
            </Button>
            <Button variant="secondary" disabled={!dirty || save.isPending} onClick={() => set(formOf(saved))}>
              Discard changes
            </Button>
            {dirty && <span className="text-xs text-gray-600">Unsaved changes: the preview shows them.</span>}
          </div>
        )}
      </form>
      <PreviewSection branding={previewOf(form, saved)} />
    </div>
  );
}

/** Settings → Branding: the white-label report's name, logo, colours and footer, with a live preview. Owners and admins edit. */
export function BrandingSettings() {
  const member = useMember();
  const canEdit = useCan("admin");
  const branding = useBranding();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Branding</h1>
        <div className="my-3">
          <SettingsNav active="branding" />
        </div>
        <p className="text-sm text-gray-600">How the branded report looks to your clients: the report your API clients fetch and share.</p>
      </div>
      {branding.error && <Alert tone="error">Could not load the branding: {describeError(branding.error)}</Alert>}
      {branding.isPending && <p className="text-sm text-gray-500">Loading…</p>}
      {/* Keyed by the workspace: another workspace's branding starts its own form. */}
      {branding.data && <BrandingEditor key={member?.workspaceId} saved={branding.data} canEdit={canEdit} />}
    </div>
  );
}

function BrandingFieldset({
  form,
  set,
  fieldErrors,
  canEdit,
}: {
  form: Form;
  set: (patch: Partial<Form>) => void;
  fieldErrors: Record<string, string[]>;
  canEdit: boolean;
}) {
  return (
    <fieldset className="space-y-4" disabled={!canEdit}>
      <Field label="Company name" errors={fieldErrors.name} hint="Shown at the top of the report. Empty: the workspace's name.">
        <Input maxLength={100} value={form.name} onChange={(e) => set({ name: e.target.value })} />
      </Field>
      <Field
        label="Logo URL"
        errors={fieldErrors.logoUrl}
        hint="An http or https address of an image (PNG, SVG, JPEG), shown in the header."
      >
        <Input
          type="url"
          inputMode="url"
          maxLength={2048}
          placeholder="https://cdn.example.com/logo.png"
          value={form.logoUrl}
          aria-invalid={fieldErrors.logoUrl ? true : undefined}
          onChange={(e) => set({ logoUrl: e.target.value })}
        />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <ColorPicker
          label="Primary colour"
          allowNone
          value={form.primaryColor}
          onChange={(v) => set({ primaryColor: v })}
          errors={fieldErrors.primaryColor}
        />
        <ColorPicker
          label="Accent colour"
          allowNone
          value={form.accentColor}
          onChange={(v) => set({ accentColor: v })}
          errors={fieldErrors.accentColor}
        />
      </div>
      <Field
        label="Footer"
        errors={fieldErrors.footerText}
        hint="One line at the bottom: contact details, legal text. At most 500 characters."
      >
        <Textarea rows={2} maxLength={500} value={form.footerText} onChange={(e) => set({ footerText: e.target.value })} />
      </Field>
    </fieldset>
  );
}

/** The report as it looks with the branding being edited, for a period and a campaign picked here. */
function PreviewSection({ branding }: { branding: BrandingFields }) {
  const [days, setDays] = useState<number>(30);
  const [campaignId, setCampaignId] = useState("");
  const report = useBrandedReport(days);
  return (
    <section className="min-w-0 space-y-3" aria-label="Preview">
      <h2 className="text-sm font-semibold text-gray-900">Preview</h2>
      <ReportPicker days={days} onDays={setDays} campaignId={campaignId} onCampaign={setCampaignId} report={report.data} />
      {report.error && <Alert tone="error">Could not load the report: {describeError(report.error)}</Alert>}
      {report.isPending && <p className="text-sm text-gray-500">Loading the report…</p>}
      {report.data && <BrandingPreview branding={branding} report={report.data} campaignId={campaignId} />}
      <p className="text-xs text-gray-500">
        The same numbers as <code className="font-mono">GET /api/v1/reports/branded</code>, which sends this branding with them.
      </p>
    </section>
  );
}
