"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/components/ui/cn";
import { keys, useRefreshCampaign } from "../queries";
import type { SpamMatch } from "../types";
import { Attachments } from "./attachments";
import { fieldsOf, patchOf, textToHtml, type Draft, type Slot } from "./drafts";
import { SpamWords } from "./spam-words";
import { TestSendDialog } from "./test-send-dialog";

const VARIABLES_HINT =
  "Variables: {{firstName}}, {{lastName}}, {{companyName}}, {{jobTitle}}, a custom field's exact name, {{senderName}}, {{signature}}.";

/** One variant of one step: its fields, Save (PATCH only what changed, or POST when new) and Delete. */
export function StepEditor({
  campaignId,
  slot,
  title,
  draft,
  active,
  spam,
  onChange,
  onActivate,
  onSaved,
  onDiscard,
  onDeleted,
}: {
  campaignId: string;
  slot: Slot;
  title: string;
  draft: Draft;
  active: boolean;
  spam?: SpamMatch[];
  onChange: (d: Draft) => void;
  onActivate: () => void;
  onSaved: (stepId: string) => void;
  onDiscard: () => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCampaign(campaignId);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [testing, setTesting] = useState(false);
  const step = slot.step;
  const dirty = !step || Object.keys(patchOf(step, draft)).length > 0;
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => onChange({ ...draft, [k]: v });

  const save = useMutation({
    mutationFn: async () => {
      if (step) {
        const body = patchOf(step, draft);
        return Object.keys(body).length
          ? data(client.PATCH("/campaigns/{id}/steps/{stepId}", { params: { path: { id: campaignId, stepId: step.id } }, body }))
          : step;
      }
      const body = { stepOrder: slot.stepOrder, variantGroup: slot.variantGroup, ...fieldsOf(draft, slot.stepOrder) };
      return data(client.POST("/campaigns/{id}/steps", { params: { path: { id: campaignId } }, body }));
    },
    // The saved step must be on screen before the draft goes, or the editor would flash back to the old text;
    // the rest of the campaign (spam words, preview, launch check) refreshes behind it.
    onSuccess: async (s) => {
      await queryClient.invalidateQueries({ queryKey: keys.part(campaignId, "steps") });
      onSaved(s.id);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => data(client.DELETE("/campaigns/{id}/steps/{stepId}", { params: { path: { id: campaignId, stepId: step!.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.part(campaignId, "steps") });
      setConfirmDelete(false);
      onDeleted();
      void refresh();
    },
  });
  const fe = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function toggleHtml(on: boolean) {
    // The first time a step gets an HTML body it starts from the plain text, not from nothing.
    onChange({
      ...draft,
      html: on,
      bodyHtmlTemplate: on && !draft.bodyHtmlTemplate.trim() ? textToHtml(draft.bodyTemplate) : draft.bodyHtmlTemplate,
    });
  }

  function insertImage(tag: string) {
    const base = draft.html
      ? draft.bodyHtmlTemplate
      : draft.bodyHtmlTemplate.trim()
        ? draft.bodyHtmlTemplate
        : textToHtml(draft.bodyTemplate);
    onChange({ ...draft, html: true, bodyHtmlTemplate: `${base}${base.endsWith("\n") || !base ? "" : "\n"}${tag}` });
  }

  return (
    <section
      aria-label={title}
      onFocusCapture={onActivate}
      className={cn("space-y-3 rounded-lg border bg-white p-4", active ? "border-indigo-400 ring-1 ring-indigo-200" : "border-gray-200")}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 text-sm font-medium text-gray-900">
          {title}
          {!step && <Badge tone="yellow">Not saved yet</Badge>}
          {step && dirty && <Badge tone="yellow">Unsaved changes</Badge>}
        </h3>
        <div className="flex gap-1">
          {!active && (
            <Button variant="ghost" size="sm" onClick={onActivate}>
              Preview
            </Button>
          )}
          {step && (
            <Button variant="ghost" size="sm" onClick={() => setTesting(true)}>
              Send test
            </Button>
          )}
          <Button variant="ghost" size="sm" className="text-red-700" onClick={() => (step ? setConfirmDelete(true) : onDiscard())}>
            {step ? "Delete" : "Discard"}
          </Button>
        </div>
      </div>

      {save.error && (
        <Alert tone="error">
          Could not save {title}: {describeError(save.error)}
        </Alert>
      )}

      {slot.stepOrder === 0 ? (
        <Field label="Subject" errors={fe.subject}>
          <Input
            value={draft.subject}
            maxLength={998}
            onChange={(e) => set("subject", e.target.value)}
            placeholder="Quick question, {{firstName}}"
          />
        </Field>
      ) : (
        <div className="grid grid-cols-[12rem_1fr] items-end gap-3">
          <Field label="Delay (hours)" errors={fe.delayHoursAfterPrevious}>
            <Input
              type="number"
              min={0}
              max={8760}
              step="any"
              value={draft.delayHours}
              onChange={(e) => set("delayHours", e.target.value)}
            />
          </Field>
          <p className="pb-2 text-xs text-gray-500">
            after the previous step. Subject: &quot;Re: &quot; + the first email&apos;s subject, in the same thread.
          </p>
        </div>
      )}
      <Field label="Body (plain text)" errors={fe.bodyTemplate} hint={VARIABLES_HINT}>
        <Textarea
          rows={8}
          value={draft.bodyTemplate}
          maxLength={100_000}
          onChange={(e) => set("bodyTemplate", e.target.value)}
          className="font-mono text-[13px]"
        />
      </Field>
      <label className="flex items-center gap-2 text-sm text-gray-800">
        <input type="checkbox" checked={draft.html} onChange={(e) => toggleHtml(e.target.checked)} />
        HTML body
        <span className="text-xs text-gray-500">
          (optional; without it the step goes out as plain text, unless the campaign tracks opens)
        </span>
      </label>
      {draft.html && (
        <Field label="HTML body" errors={fe.bodyHtmlTemplate}>
          <Textarea
            rows={8}
            value={draft.bodyHtmlTemplate}
            maxLength={500_000}
            onChange={(e) => set("bodyHtmlTemplate", e.target.value)}
            className="font-mono text-[13px]"
          />
        </Field>
      )}

      <div className="flex items-center gap-2">
        <Button size="sm" disabled={!dirty || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        {step && dirty && (
          <Button size="sm" variant="secondary" onClick={onDiscard}>
            Discard changes
          </Button>
        )}
      </div>

      {step && spam && <SpamWords step={step} matches={spam} edited={dirty} />}
      {step ? (
        <Attachments campaignId={campaignId} step={step} title={title} onInsert={insertImage} />
      ) : (
        <p className="text-xs text-gray-500">Save the step to attach files, check spam words and send a test.</p>
      )}

      {step && testing && (
        <TestSendDialog campaignId={campaignId} step={step} title={title} edited={dirty} onClose={() => setTesting(false)} />
      )}
      <Dialog
        open={confirmDelete}
        onClose={() => {
          setConfirmDelete(false);
          remove.reset();
        }}
        title={`Delete ${title}?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting…" : "Delete"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>The step and its files are deleted. A step that has already sent cannot be deleted; edit it instead.</p>
          {remove.error && <Alert tone="error">{describeError(remove.error)}</Alert>}
        </div>
      </Dialog>
    </section>
  );
}
