"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { keys, useRefreshCampaign } from "../queries";
import { fieldsOf, patchOf, textToHtml, type Draft, type Slot } from "./drafts";

/**
 * One step editor's state and calls: whether the draft differs from the saved step, Save (PATCH only what
 * changed, or POST when new), Delete behind a confirmation, the test-send dialog, and the edits that
 * switch the HTML body on or put an inline image's tag into it.
 */
export function useStepEditor({
  campaignId,
  slot,
  draft,
  onChange,
  onSaved,
  onDeleted,
}: {
  campaignId: string;
  slot: Slot;
  draft: Draft;
  onChange: (d: Draft) => void;
  onSaved: (stepId: string) => void;
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
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

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

  return { step, dirty, set, save, remove, fieldErrors, confirmDelete, setConfirmDelete, testing, setTesting, toggleHtml, insertImage };
}

export type StepEditorState = ReturnType<typeof useStepEditor>;
