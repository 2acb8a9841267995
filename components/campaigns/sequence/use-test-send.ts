"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, smtpCodeOf, data, client } from "@/components/api-client";

/** The test-send form's fields and its call: the saved step, to `to`, rendered for a lead and sent from a mailbox when chosen. */
export function useTestSend(campaignId: string, stepId: string) {
  const [to, setTo] = useState("");
  const [leadId, setLeadId] = useState("");
  const [mailboxId, setMailboxId] = useState("");
  const send = useMutation({
    mutationFn: () =>
      data(
        client.POST("/campaigns/{id}/steps/{stepId}/test-send", {
          params: { path: { id: campaignId, stepId } },
          body: { to: to.trim(), ...(leadId ? { leadId } : {}), ...(mailboxId ? { mailboxId } : {}) },
        }),
      ),
  });
  const fieldErrors = send.error instanceof ApiError ? send.error.fieldErrors : {};
  const code = smtpCodeOf(send.error);
  return { to, setTo, leadId, setLeadId, mailboxId, setMailboxId, send, fieldErrors, code };
}

export type TestSend = ReturnType<typeof useTestSend>["send"];
