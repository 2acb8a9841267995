"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, describeError, smtpCodeOf, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import type { Step } from "../types";
import { LeadPicker, MailboxPicker } from "./pickers";

/** The saved step, rendered for a real lead with its files, through a pool mailbox's SMTP server, to any address. */
export function TestSendDialog({
  campaignId,
  step,
  title,
  edited,
  onClose,
}: {
  campaignId: string;
  step: Step;
  title: string;
  edited: boolean;
  onClose: () => void;
}) {
  const [to, setTo] = useState("");
  const [leadId, setLeadId] = useState("");
  const [mailboxId, setMailboxId] = useState("");
  const send = useMutation({
    mutationFn: () =>
      data(
        client.POST("/campaigns/{id}/steps/{stepId}/test-send", {
          params: { path: { id: campaignId, stepId: step.id } },
          body: { to: to.trim(), ...(leadId ? { leadId } : {}), ...(mailboxId ? { mailboxId } : {}) },
        }),
      ),
  });
  const fe = send.error instanceof ApiError ? send.error.fieldErrors : {};
  const code = smtpCodeOf(send.error);

  function submit(e: FormEvent) {
    e.preventDefault();
    send.mutate();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Send a test of ${title}`}
      footer={
        <FormFooter
          form={`test-send-${step.id}`}
          pending={send.isPending}
          onCancel={onClose}
          cancelLabel="Close"
          submitLabel="Send test"
          pendingLabel="Sending…"
        />
      }
    >
      <form id={`test-send-${step.id}`} onSubmit={submit} className="space-y-3">
        {edited && <Alert tone="warning">The saved version is sent; your unsaved changes are not.</Alert>}
        <Field label="To" errors={fe.to}>
          <Input type="email" required value={to} onChange={(e) => setTo(e.target.value)} placeholder="you@example.com" />
        </Field>
        <div className="space-y-1">
          <p className="text-sm font-medium text-gray-700">Render for</p>
          <LeadPicker campaignId={campaignId} value={leadId} onChange={setLeadId} label="Lead to render for" />
        </div>
        <div className="space-y-1">
          <p className="text-sm font-medium text-gray-700">Send from</p>
          <MailboxPicker campaignId={campaignId} value={mailboxId} onChange={setMailboxId} label="Mailbox to send from" />
        </div>
        <p className="text-xs text-gray-500">A test is not a campaign send: nothing is recorded for the lead. At most 5 per minute.</p>
        {send.data && (
          <Alert tone="success">
            <p data-testid="step-test-result">
              Sent to {send.data.to} from {send.data.from}.
            </p>
            <p className="mt-1 text-xs break-words">Subject: {send.data.subject}</p>
            <p className="text-xs break-words">Message-ID: {send.data.messageId}</p>
          </Alert>
        )}
        {send.error && (
          <Alert tone="error">
            <p>{describeError(send.error)}</p>
            {code !== undefined && <p className="mt-1 text-xs">SMTP reply code {code}</p>}
          </Alert>
        )}
      </form>
    </Dialog>
  );
}
