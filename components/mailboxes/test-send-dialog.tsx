"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import { dateTime } from "@/components/ui/time";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { client, data, smtpCodeOf } from "@/components/api-client";

/** A real email through the mailbox's SMTP server; a failure shows the server's reply and its code. */
export function TestSendDialog({ mailbox, onClose }: { mailbox: MailboxView; onClose: () => void }) {
  const [to, setTo] = useState("");
  const [subject, setSubject] = useState("");
  const send = useMutation({
    mutationFn: () =>
      data(
        client.POST("/mailboxes/{id}/test-send", {
          params: { path: { id: mailbox.id } },
          body: { to: to.trim(), ...(subject.trim() ? { subject: subject.trim() } : {}) },
        }),
      ),
  });
  const fieldErrors = send.error instanceof ApiError ? send.error.fieldErrors : {};
  const code = smtpCodeOf(send.error);

  function submit(e: FormEvent) {
    e.preventDefault();
    send.mutate();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Send a test email from ${mailbox.email}`}
      footer={
        <FormFooter
          form="test-send-form"
          pending={send.isPending}
          onCancel={onClose}
          cancelLabel="Close"
          submitLabel="Send test email"
          pendingLabel="Sending…"
        />
      }
    >
      <form id="test-send-form" onSubmit={submit} className="space-y-3">
        <Field label="To" errors={fieldErrors.to}>
          <Input type="email" required value={to} onChange={(e) => setTo(e.target.value)} placeholder="you@example.com" />
        </Field>
        <Field label="Subject (optional)" errors={fieldErrors.subject}>
          <Input
            value={subject}
            maxLength={500}
            onChange={(e) => setSubject(e.target.value)}
            placeholder={`Test email from ${mailbox.email}`}
          />
        </Field>
        {send.data && (
          <Alert tone="success">
            <p data-testid="test-send-result">
              Sent to {to.trim()} at {dateTime(send.data.sentAt)}.
            </p>
            <p className="mt-1 text-xs break-words">Server reply: {send.data.response}</p>
            <p className="text-xs break-words">Message-ID: {send.data.messageId}</p>
          </Alert>
        )}
        {send.error && (
          <Alert tone="error">
            <p data-testid="test-send-error">{send.error.message}</p>
            {code !== undefined && <p className="mt-1 text-xs">SMTP reply code {code}</p>}
          </Alert>
        )}
      </form>
    </Dialog>
  );
}
