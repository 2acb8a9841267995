"use client";

import type { FormEvent } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import type { Step } from "../types";
import { LeadPicker, MailboxPicker } from "./pickers";
import { type TestSend, useTestSend } from "./use-test-send";

/** What the server said of the last test: where it went, or why it failed with the SMTP reply code when there is one. */
function TestSendOutcome({ send, code }: { send: TestSend; code: number | undefined }) {
  return (
    <>
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
    </>
  );
}

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
  const { to, setTo, leadId, setLeadId, mailboxId, setMailboxId, send, fieldErrors: fe, code } = useTestSend(campaignId, step.id);

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
        <TestSendOutcome send={send} code={code} />
      </form>
    </Dialog>
  );
}
