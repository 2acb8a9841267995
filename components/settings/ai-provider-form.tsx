"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { type AiProviderBody, type AiProviderSetting, type AiProviderTestResult, aiKeys } from "./ai-queries";

const SOURCE: Record<AiProviderSetting["source"], { tone: BadgeTone; text: string }> = {
  workspace: { tone: "green", text: "This workspace's own endpoint, set below. It wins over the installation's AI_* variables." },
  environment: {
    tone: "blue",
    text: "The installation's endpoint (the operator's AI_* variables). Set one below to use this workspace's own instead.",
  },
  none: {
    tone: "yellow",
    text: "No AI provider: classification uses the built-in rules and drafts are template drafts. Set an endpoint below.",
  },
};

type Form = { baseUrl: string; model: string; embeddingModel: string; apiKey: string; removeKey: boolean };

function formOf(s: AiProviderSetting): Form {
  const own = s.source === "workspace";
  return {
    baseUrl: own ? (s.baseUrl ?? "") : "",
    model: own ? (s.model ?? "") : "",
    embeddingModel: own ? (s.embeddingModel ?? "") : "",
    apiKey: "",
    removeKey: false,
  };
}

/** The body of PUT /settings/ai-provider: an empty key field keeps the stored key; "Remove the stored key" sends null. */
function bodyOf(f: Form): AiProviderBody {
  const body: AiProviderBody = { baseUrl: f.baseUrl.trim(), model: f.model.trim(), embeddingModel: f.embeddingModel.trim() || null };
  if (f.apiKey.trim()) body.apiKey = f.apiKey.trim();
  else if (f.removeKey) body.apiKey = null;
  return body;
}

/** Which endpoint the workspace's AI uses, the form to set this workspace's own, Save, Remove and Test. */
/** The form's state, Save, Remove and Test. */
function useAiProviderForm(setting: AiProviderSetting) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => formOf(setting));
  const [saved, setSaved] = useState<string>();
  const [tested, setTested] = useState<AiProviderTestResult>();
  const [confirming, setConfirming] = useState(false);
  const own = setting.source === "workspace";
  const done = (r: AiProviderSetting, message: string) => {
    queryClient.setQueryData(aiKeys.provider, r);
    // The provider's name and model show with the AI settings too.
    void queryClient.invalidateQueries({ queryKey: aiKeys.settings });
    setForm(formOf(r));
    setSaved(message);
    setTested(undefined);
    setConfirming(false);
  };
  const save = useMutation({
    mutationFn: (body: AiProviderBody) => data(client.PUT("/settings/ai-provider", { body })),
    onSuccess: (r) => done(r, "Saved: this workspace's AI uses this endpoint now."),
  });
  const remove = useMutation({
    mutationFn: () => data(client.DELETE("/settings/ai-provider")),
    onSuccess: (r) => done(r, "Removed: this workspace's own endpoint is gone."),
  });
  const test = useMutation({
    mutationFn: () => data(client.POST("/settings/ai-provider/test")),
    onSuccess: (r) => setTested(r),
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(undefined);
    remove.reset();
    save.mutate(bodyOf(form));
  }

  const busy = save.isPending || remove.isPending;
  return { form, set, saved, setSaved, tested, setTested, confirming, setConfirming, own, save, remove, test, fieldErrors, submit, busy };
}

type ProviderState = ReturnType<typeof useAiProviderForm>;

export function AiProviderForm({ setting, canEdit }: { setting: AiProviderSetting; canEdit: boolean }) {
  const k = useAiProviderForm(setting);
  const { form, set, save, remove, test, tested, saved, fieldErrors, submit, own } = k;
  return (
    <form aria-label="AI provider" onSubmit={submit} className="space-y-4 rounded-lg border border-gray-200 bg-white p-4">
      <ProviderInUse setting={setting} />
      <ProviderFields k={k} setting={setting} canEdit={canEdit} />
      {canEdit && own && setting.keySet && (
        <label className="inline-flex items-center gap-1.5 text-sm text-gray-700">
          <input type="checkbox" checked={form.removeKey} disabled={!!form.apiKey} onChange={(e) => set({ removeKey: e.target.checked })} />
          Remove the stored key when saving
        </label>
      )}
      {save.error && !Object.keys(fieldErrors).length && <Alert tone="error">Could not save: {describeError(save.error)}</Alert>}
      {remove.error && <Alert tone="error">Could not remove: {describeError(remove.error)}</Alert>}
      {test.error && <Alert tone="error">Could not test: {describeError(test.error)}</Alert>}
      {saved && !save.error && <Alert tone="success">{saved}</Alert>}
      {tested && (
        <Alert tone={tested.ok ? "success" : "error"}>
          <span data-testid="ai-provider-test-result">
            {tested.ok ? `OK: ${tested.model} answered in ${tested.latencyMs} ms.` : `Test failed: ${tested.error}`}
          </span>
        </Alert>
      )}
      {canEdit && <ProviderActions k={k} setting={setting} />}
    </form>
  );
}

function ProviderInUse({ setting }: { setting: AiProviderSetting }) {
  const source = SOURCE[setting.source];
  return (
    <div className="space-y-1">
      <h2 className="text-sm font-semibold text-gray-900">AI provider</h2>
      <p className="flex flex-wrap items-center gap-2 text-sm text-gray-700">
        <span>In use:</span>
        <Badge tone={source.tone}>
          <span data-testid="ai-provider-source">{setting.source}</span>
        </Badge>
        {setting.configured && (
          <span className="break-all text-gray-600">
            {setting.model} at {setting.baseUrl}
            {setting.embeddingModel ? `, embeddings ${setting.embeddingModel}` : ""}
          </span>
        )}
      </p>
      <p className="text-xs text-gray-500">{source.text} Test calls the provider in use with a one-token request (no AI credit).</p>
    </div>
  );
}

function ProviderFields({ k, setting, canEdit }: { k: ProviderState; setting: AiProviderSetting; canEdit: boolean }) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <Field
        label="Base URL"
        errors={k.fieldErrors.baseUrl}
        hint="The endpoint's OpenAI-compatible base, usually ending in /v1. Private addresses need the operator's OUTBOUND_ALLOW_HOSTS."
      >
        <Input
          required
          type="url"
          value={k.form.baseUrl}
          disabled={!canEdit}
          onChange={(e) => k.set({ baseUrl: e.target.value })}
          placeholder="https://api.openai.com/v1"
        />
      </Field>
      <Field label="Model" errors={k.fieldErrors.model} hint="Chat model for classification, drafts and answers.">
        <Input
          required
          value={k.form.model}
          disabled={!canEdit}
          onChange={(e) => k.set({ model: e.target.value })}
          placeholder="gpt-4o-mini"
        />
      </Field>
      <Field
        label="Embedding model"
        errors={k.fieldErrors.embeddingModel}
        hint="Optional: reply agents' search uses it with full-text search."
      >
        <Input
          value={k.form.embeddingModel}
          disabled={!canEdit}
          onChange={(e) => k.set({ embeddingModel: e.target.value })}
          placeholder="text-embedding-3-small"
        />
      </Field>
      <Field
        label="API key"
        errors={k.fieldErrors.apiKey}
        hint={
          k.own && setting.keySet ? "A key is set. Leave this empty to keep it; it is never shown again." : "Stored encrypted, never shown."
        }
      >
        <Input
          type="password"
          autoComplete="off"
          value={k.form.apiKey}
          disabled={!canEdit}
          onChange={(e) => k.set({ apiKey: e.target.value, removeKey: false })}
          placeholder={k.own && setting.keySet ? "a key is set" : "none (a local server may need none)"}
        />
      </Field>
    </div>
  );
}

function ProviderActions({ k, setting }: { k: ProviderState; setting: AiProviderSetting }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={k.busy || !k.form.baseUrl.trim() || !k.form.model.trim()}>
        {k.save.isPending ? "Saving…" : "Save"}
      </Button>
      <Button
        variant="secondary"
        disabled={k.test.isPending || !setting.configured}
        onClick={() => {
          k.setTested(undefined);
          k.test.mutate();
        }}
      >
        {k.test.isPending ? "Testing…" : "Test"}
      </Button>
      {k.own && !k.confirming && (
        <Button variant="secondary" disabled={k.busy} onClick={() => k.setConfirming(true)}>
          Remove…
        </Button>
      )}
      {k.own && k.confirming && (
        <>
          <Button variant="danger" disabled={k.busy} onClick={() => k.remove.mutate()}>
            {k.remove.isPending ? "Removing…" : "Yes, remove it"}
          </Button>
          <Button variant="ghost" onClick={() => k.setConfirming(false)}>
            Cancel
          </Button>
        </>
      )}
    </div>
  );
}
