"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { data, client } from "@/components/api-client";
import { keys, useAttachments } from "../queries";
import type { AddedAttachment, Attachment } from "../types";

/** A file's bytes as base64 (the attachment API takes JSON). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error ?? new Error(`Could not read ${file.name}`));
    // "data:<type>;base64,<data>": the part after the comma is the base64.
    r.onload = () => resolve(String(r.result).slice(String(r.result).indexOf(",") + 1));
    r.readAsDataURL(file);
  });
}

/**
 * A step's files and their calls: the list, an upload (as an inline image when `inline` is ticked) that
 * clears the file input once it is in, and a removal; the list is fetched again after each.
 */
export function useStepFiles(campaignId: string, stepId: string) {
  const queryClient = useQueryClient();
  const files = useAttachments(campaignId, stepId);
  const input = useRef<HTMLInputElement>(null);
  const [inline, setInline] = useState(false);
  const [added, setAdded] = useState<AddedAttachment>();
  const refreshFiles = () => queryClient.invalidateQueries({ queryKey: keys.part(campaignId, "attachments", stepId) });
  const path = { id: campaignId, stepId };

  const upload = useMutation({
    mutationFn: async (file: File) =>
      data(
        client.POST("/campaigns/{id}/steps/{stepId}/attachments", {
          params: { path },
          body: {
            filename: file.name,
            contentType: file.type || "application/octet-stream",
            contentBase64: await readBase64(file),
            inline,
          },
        }),
      ),
    onSuccess: async (a) => {
      setAdded(a);
      if (input.current) input.current.value = "";
      await refreshFiles();
    },
  });
  const remove = useMutation({
    mutationFn: (a: Attachment) =>
      data(
        client.DELETE("/campaigns/{id}/steps/{stepId}/attachments/{attachmentId}", { params: { path: { ...path, attachmentId: a.id } } }),
      ),
    onSuccess: () => refreshFiles(),
  });
  return { files, input, inline, setInline, added, upload, remove };
}

export type StepFiles = ReturnType<typeof useStepFiles>;
