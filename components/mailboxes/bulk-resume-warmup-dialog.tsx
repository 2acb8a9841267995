"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { bulkResumeWarmup } from "@/components/warmup/api";

const plural = (n: number) => `${n} mailbox${n === 1 ? "" : "es"}`;

/**
 * POST /mailboxes/bulk-resume-warmup for the selected rows: each paused ramp continues on the day it
 * reached; what cannot resume (never started, bounce pause, warming in another workspace) is listed
 * with the server's reason and the dialog stays open to show it.
 */
export function BulkResumeWarmupDialog({
  mailboxIds,
  onClose,
  onDone,
}: {
  mailboxIds: string[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const resume = useMutation({
    mutationFn: () => bulkResumeWarmup(mailboxIds),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: ["mailboxes"] });
      if (r.skipped.length === 0) onDone(`Warmup resumed on ${plural(r.resumed.length)}.`);
    },
  });
  const result = resume.data;
  const n = mailboxIds.length;

  if (result) {
    const message = `Warmup resumed on ${plural(result.resumed.length)}; ${result.skipped.length} skipped.`;
    return (
      <Dialog open onClose={() => onDone(message)} title="Warmup resumed" footer={<Button onClick={() => onDone(message)}>Done</Button>}>
        <div className="space-y-3 text-sm text-gray-700">
          <p data-testid="bulk-resume-summary">{message}</p>
          <ul aria-label="Skipped mailboxes" className="space-y-1">
            {result.skipped.map((s) => (
              <li key={s.mailboxId} className="rounded-md bg-yellow-50 px-2 py-1 text-yellow-900">
                <span className="font-medium">{s.email ?? s.mailboxId}</span>: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Resume warmup of ${plural(n)}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={resume.isPending} onClick={() => resume.mutate()}>
            {resume.isPending ? "Resuming…" : "Resume warmup"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>
          Each paused ramp continues on the day it reached. Mailboxes that cannot resume are skipped and listed with the reason; the rest
          still resume.
        </p>
        {resume.error && <Alert tone="error">{describeError(resume.error)}</Alert>}
      </div>
    </Dialog>
  );
}
