"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { client, data, describeError } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { useCan } from "@/components/shell/member-context";
import { refreshInbox } from "./queries";
import type { InboundMessage } from "./types";

/** A day as the reader's calendar shows it ("Mon, 14 Dec 2026"), from YYYY-MM-DD. */
const day = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString(undefined, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });

/** What was read from an automatic or wrong-person reply: the return date, and whom the reply points to instead. */
export function ReplyNotes({ m }: { m: InboundMessage }) {
  if (!m.returnDate && !m.referral) return null;
  return (
    <div className="mt-2 space-y-2">
      {m.returnDate && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900" data-testid="return-date">
          Back on <strong>{day(m.returnDate)}</strong>: the sequence pauses until then.
          {m.returnDateText && <span className="mt-1 block text-amber-800 italic">“{m.returnDateText}”</span>}
        </p>
      )}
      {m.referral && <Referral replyId={m.id} referral={m.referral} />}
    </div>
  );
}

function Referral({ replyId, referral }: { replyId: string; referral: NonNullable<InboundMessage["referral"]> }) {
  const canWrite = useCan("member");
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => data(client.POST("/replies/{id}/referral/add", { params: { path: { id: replyId } }, body: {} })),
    onSuccess: () => refreshInbox(queryClient),
  });
  const who = [referral.name, referral.email && `<${referral.email}>`].filter(Boolean).join(" ");
  return (
    <div className="rounded-md bg-indigo-50 px-3 py-2 text-xs text-indigo-900" data-testid="referral">
      <p>
        Points to <strong>{who}</strong>
        {referral.text && <span className="mt-1 block text-indigo-800 italic">“{referral.text}”</span>}
      </p>
      {referral.leadId && !add.data && (
        <p className="mt-1" data-testid="referral-added">
          Added as a lead.
        </p>
      )}
      {canWrite && referral.email && !referral.leadId && !add.data && (
        <Button size="sm" className="mt-2" disabled={add.isPending} onClick={() => add.mutate()}>
          {add.isPending ? "Adding…" : "Add as a lead to this campaign"}
        </Button>
      )}
      {add.data && (
        <p className="mt-1" data-testid="referral-added">
          {add.data.status === "suppressed"
            ? `${referral.email} is suppressed and was not added.`
            : `${referral.email} ${add.data.status === "created" ? "added as a lead" : "was already a lead"}${add.data.campaign ? " and is in the campaign" : ""}.`}
        </p>
      )}
      {add.error && <p className="mt-1 text-red-700">Could not add: {describeError(add.error)}</p>}
    </div>
  );
}
