"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { data, client } from "@/components/api-client";
import { keys, useAttachments } from "../queries";
import { useDebounced } from "../use-debounced";
import type { Draft } from "./drafts";

const DEBOUNCE_MS = 400;

/**
 * The preview's choices and its rendering: the draft (a moment after the typing stops) for the chosen lead and
 * mailbox, as the saved step when there is one so that its spintax comes out as that lead's, and at `spinIndex`
 * (0: what the lead receives; 1, 2 …: the other choices in turn). Another lead or step starts again from its own choices.
 */
export function usePreview({
  campaignId,
  stepOrder,
  stepId,
  draft,
}: {
  campaignId: string;
  stepOrder: number;
  stepId?: string;
  draft: Draft;
}) {
  const [leadId, setLeadId] = useState("");
  const [mailboxId, setMailboxId] = useState("");
  const [spin, setSpin] = useState({ of: "", index: 0 });
  const of = `${stepId ?? ""}\u0000${leadId}`;
  const spinIndex = spin.of === of ? spin.index : 0;
  const setSpinIndex = (index: number) => setSpin({ of, index });
  const files = useAttachments(campaignId, stepId ?? "", !!stepId);
  const typed = useDebounced(
    {
      subject: stepOrder === 0 ? draft.subject : null,
      bodyTemplate: draft.bodyTemplate,
      bodyHtmlTemplate: draft.html ? draft.bodyHtmlTemplate : null,
      stepOrder,
      ...(stepId ? { stepId } : {}),
      ...(leadId ? { leadId } : {}),
      ...(mailboxId ? { mailboxId } : {}),
    },
    DEBOUNCE_MS,
  );
  // A click on Previous or Next answers at once: only the typing waits.
  const input = { ...typed, ...(spinIndex > 0 ? { spinIndex } : {}) };
  const preview = useQuery({
    queryKey: keys.part(campaignId, "preview", input),
    queryFn: ({ signal }) =>
      data(client.POST("/campaigns/{id}/steps/preview", { params: { path: { id: campaignId } }, body: input, signal })),
    // Keep the last rendering on screen while the next one is made.
    placeholderData: keepPreviousData,
  });
  return { leadId, setLeadId, mailboxId, setMailboxId, spinIndex, setSpinIndex, files, preview };
}
