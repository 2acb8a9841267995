"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/components/ui/cn";
import type { RspamdStep, SpamMatch } from "../types";
import { Attachments } from "./attachments";
import type { Draft, Slot } from "./drafts";
import { RspamdScore } from "./rspamd-score";
import { SpamWords } from "./spam-words";
import { TestSendDialog } from "./test-send-dialog";
import { type StepEditorState, useStepEditor } from "./use-step-editor";

const VARIABLES_HINT =
  "Variables: {{firstName}}, {{lastName}}, {{companyName}}, {{jobTitle}}, a custom field's exact name, {{senderName}}, {{signature}}.";

/** The editor's title with its saved state, and Preview, Send test and Delete (Discard for a step not saved yet). */
function StepHeader({
  title,
  state,
  active,
  onActivate,
  onDiscard,
}: {
  title: string;
  state: StepEditorState;
  active: boolean;
  onActivate: () => void;
  onDiscard: () => void;
}) {
  const { step, dirty, setTesting, setConfirmDelete } = state;
  return (
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
  );
}

/** Subject (the first step) or delay (a follow-up), the plain-text body, and the optional HTML body. */
function StepFields({ stepOrder, draft, state }: { stepOrder: number; draft: Draft; state: StepEditorState }) {
  const { set, fieldErrors, toggleHtml } = state;
  return (
    <>
      {stepOrder === 0 ? (
        <Field label="Subject" errors={fieldErrors.subject}>
          <Input
            value={draft.subject}
            maxLength={998}
            onChange={(e) => set("subject", e.target.value)}
            placeholder="Quick question, {{firstName}}"
          />
        </Field>
      ) : (
        <div className="grid grid-cols-[12rem_1fr] items-end gap-3">
          <Field label="Delay (hours)" errors={fieldErrors.delayHoursAfterPrevious}>
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
      <Field label="Body (plain text)" errors={fieldErrors.bodyTemplate} hint={VARIABLES_HINT}>
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
        <Field label="HTML body" errors={fieldErrors.bodyHtmlTemplate}>
          <Textarea
            rows={8}
            value={draft.bodyHtmlTemplate}
            maxLength={500_000}
            onChange={(e) => set("bodyHtmlTemplate", e.target.value)}
            className="font-mono text-[13px]"
          />
        </Field>
      )}
    </>
  );
}

/** Delete behind a confirmation: a step that has already sent is refused, and the refusal shows here. */
function DeleteStepDialog({ title, state }: { title: string; state: StepEditorState }) {
  const { remove, confirmDelete, setConfirmDelete } = state;
  return (
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
  );
}

/** One variant of one step: its fields, Save (PATCH only what changed, or POST when new) and Delete. */
export function StepEditor({
  campaignId,
  slot,
  title,
  draft,
  active,
  spam,
  rspamd,
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
  /** The saved step scored by the installation's rspamd (only with RSPAMD_URL). */
  rspamd?: RspamdStep;
  onChange: (d: Draft) => void;
  onActivate: () => void;
  onSaved: (stepId: string) => void;
  onDiscard: () => void;
  onDeleted: () => void;
}) {
  const state = useStepEditor({ campaignId, slot, draft, onChange, onSaved, onDeleted });
  const { step, dirty, save, testing, setTesting } = state;
  return (
    <section
      aria-label={title}
      onFocusCapture={onActivate}
      className={cn("space-y-3 rounded-lg border bg-white p-4", active ? "border-indigo-400 ring-1 ring-indigo-200" : "border-gray-200")}
    >
      <StepHeader title={title} state={state} active={active} onActivate={onActivate} onDiscard={onDiscard} />

      {save.error && (
        <Alert tone="error">
          Could not save {title}: {describeError(save.error)}
        </Alert>
      )}

      <StepFields stepOrder={slot.stepOrder} draft={draft} state={state} />

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
      {step && rspamd && <RspamdScore result={rspamd} edited={dirty} />}
      {step ? (
        <Attachments campaignId={campaignId} step={step} title={title} onInsert={state.insertImage} />
      ) : (
        <p className="text-xs text-gray-500">Save the step to attach files, check spam words and send a test.</p>
      )}

      {step && testing && (
        <TestSendDialog campaignId={campaignId} step={step} title={title} edited={dirty} onClose={() => setTesting(false)} />
      )}
      <DeleteStepDialog title={title} state={state} />
    </section>
  );
}
