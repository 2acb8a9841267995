"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { type AiSettings, type AiSettingsPatch, aiKeys } from "./ai-queries";

const SWITCHES = [
  {
    key: "aiClassificationEnabled",
    label: "Classify replies with AI",
    about: "A person's reply is classified by the model (interested, question, wrong person…). Off, or without a provider: the rules.",
  },
  {
    key: "aiDraftEnabled",
    label: "Draft replies",
    about: "The inbox's Draft reply button. With a provider it is an AI draft, otherwise a template draft. Each draft takes one AI credit.",
  },
  {
    key: "autoTagOnReply",
    label: "Tag leads by reply intent",
    about: "When a reply is classified, its lead gets a tag named after the intent (Interested, Question, …).",
  },
] as const;

function usePatch(onSaved?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AiSettingsPatch) => data(client.PATCH("/ai-settings", { body })),
    onSuccess: (r) => {
      queryClient.setQueryData(aiKeys.settings, r);
      onSaved?.();
    },
  });
}

/** This month's AI credits (the same count the 429 AI_CREDITS refusal goes by). */
function Credits({ credits }: { credits: AiSettings["credits"] }) {
  const renews = new Date(credits.resetsAt).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });
  return (
    <section aria-labelledby="ai-credits-heading" className="space-y-2 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="ai-credits-heading" className="text-sm font-semibold text-gray-900">
        AI credits this month
      </h2>
      <Progress value={credits.used} max={credits.limit} label="credits used" />
      <p className="text-sm text-gray-600" data-testid="ai-credits">
        {credits.remaining.toLocaleString()} left; they renew on {renews}.
      </p>
    </section>
  );
}

/** The switches, saved as they are flipped. */
function Switches({ settings, canEdit }: { settings: AiSettings; canEdit: boolean }) {
  const patch = usePatch();
  return (
    <section aria-labelledby="ai-switches-heading" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="ai-switches-heading" className="text-sm font-semibold text-gray-900">
        What AI does
      </h2>
      <ul className="divide-y divide-gray-100">
        {SWITCHES.map((s) => (
          <li key={s.key} className="flex items-start justify-between gap-4 py-2">
            <div className="min-w-0 space-y-0.5">
              <p className="text-sm font-medium text-gray-800">{s.label}</p>
              <p className="text-xs text-gray-500">{s.about}</p>
            </div>
            <Switch
              aria-label={s.label}
              checked={settings[s.key]}
              disabled={!canEdit || patch.isPending}
              onClick={() => patch.mutate({ [s.key]: !settings[s.key] })}
            />
          </li>
        ))}
      </ul>
      {patch.error && <Alert tone="error">Could not save: {describeError(patch.error)}</Alert>}
    </section>
  );
}

/** Custom instructions for drafts and the monthly credits, saved together. */
function Limits({ settings, canEdit }: { settings: AiSettings; canEdit: boolean }) {
  const [instructions, setInstructions] = useState(settings.customInstructions);
  const [credits, setCredits] = useState(String(settings.monthlyCredits));
  const [saved, setSaved] = useState(false);
  const patch = usePatch(() => setSaved(true));
  const fieldErrors = patch.error instanceof ApiError ? patch.error.fieldErrors : {};
  const n = Number(credits);
  const valid = credits.trim() !== "" && Number.isInteger(n) && n >= 0 && n <= 1_000_000;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    patch.mutate({ customInstructions: instructions, monthlyCredits: n });
  }

  return (
    <form aria-label="Drafts and credits" onSubmit={submit} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-gray-900">Drafts and credits</h2>
      <div className="space-y-1">
        <label htmlFor="ai-instructions" className="block text-sm font-medium text-gray-700">
          Custom instructions
        </label>
        <Textarea
          id="ai-instructions"
          rows={4}
          maxLength={4000}
          value={instructions}
          readOnly={!canEdit}
          onChange={(e) => setInstructions(e.target.value)}
          placeholder="e.g. Sign as Sam from Acme. Offer a 15-minute call, never a discount."
        />
        <p className="text-xs text-gray-500">Added to the model's instructions for every AI draft (template drafts do not use them).</p>
        {fieldErrors.customInstructions?.map((m) => (
          <p key={m} className="text-xs text-red-600">
            {m}
          </p>
        ))}
      </div>
      <Field
        label="Monthly AI credits"
        errors={fieldErrors.monthlyCredits ?? (valid ? undefined : ["A whole number from 0 to 1,000,000"])}
        hint={
          "A draft, a reply agent's message, an AI search, a copy rewrite, an embeddings request and a finder enrichment " +
          "take one each; classification takes none. At the limit they are refused until the credits renew."
        }
      >
        <Input
          type="number"
          min={0}
          max={1_000_000}
          step={1}
          inputMode="numeric"
          className="w-40"
          value={credits}
          disabled={!canEdit}
          onChange={(e) => setCredits(e.target.value)}
        />
      </Field>
      {patch.error && !Object.keys(fieldErrors).length && <Alert tone="error">Could not save: {describeError(patch.error)}</Alert>}
      {saved && !patch.error && <Alert tone="success">Saved.</Alert>}
      {canEdit && (
        <Button type="submit" disabled={patch.isPending || !valid}>
          {patch.isPending ? "Saving…" : "Save"}
        </Button>
      )}
    </form>
  );
}

/** The workspace's AI settings (PATCH /ai-settings) and this month's credits (GET /ai-settings). */
export function AiOptions({ settings, canEdit }: { settings: AiSettings; canEdit: boolean }) {
  return (
    <>
      <Credits credits={settings.credits} />
      <Switches settings={settings} canEdit={canEdit} />
      <Limits settings={settings} canEdit={canEdit} />
    </>
  );
}
