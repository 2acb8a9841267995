"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { PlacementGrid } from "./placement-grid";
import { PlacementHistory } from "./placement-history";
import { usePlacementTest, usePlacementTests, useSenderMailboxes, useStartPlacement } from "./placement-queries";

/**
 * Placement tests on the Deliverability page: pick a mailbox and run — a probe goes to every seed (the
 * workspace's seed mailboxes and the installation's pool) and each seed is read back over IMAP. The
 * grid of the chosen test fills in while it runs; below it, the history of tests.
 */
export function PlacementPanel() {
  const mailboxes = useSenderMailboxes();
  const [mailboxId, setMailboxId] = useState("");
  const [subject, setSubject] = useState("");
  const [selected, setSelected] = useState<string>();
  const latest = usePlacementTests(1, 1).data?.tests[0]?.id;
  const shown = selected ?? latest;
  const test = usePlacementTest(shown);
  const start = useStartPlacement((s) => setSelected(s.id));
  const senders = mailboxes.data?.senders ?? [];
  const chosen = mailboxId || senders[0]?.id || "";

  return (
    <section className="space-y-4 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby="placement-heading">
      <div>
        <h2 id="placement-heading" className="text-base font-semibold text-gray-900">
          Inbox placement
        </h2>
        <p className="text-sm text-gray-600">
          Sends one ordinary email from a mailbox to every seed and checks where it lands: inbox, spam or nowhere. Mark mailboxes as seeds
          on the Mailboxes page.
        </p>
      </div>

      {mailboxes.data && mailboxes.data.seeds === 0 && (
        <Alert tone="info">This workspace has no seed mailboxes. Unless the installation has a seed pool, a test ends as “No seeds”.</Alert>
      )}
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) start.mutate({ mailboxId: chosen, subject: subject.trim() || undefined });
        }}
      >
        <div className="w-72">
          <Field label="Mailbox to test">
            <Select value={chosen} onChange={(e) => setMailboxId(e.target.value)} disabled={!senders.length}>
              {senders.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.email}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <div className="w-72">
          <Field label="Subject (optional)">
            <Input value={subject} maxLength={500} placeholder="Quick question" onChange={(e) => setSubject(e.target.value)} />
          </Field>
        </div>
        <Button type="submit" disabled={!chosen || start.isPending}>
          {start.isPending ? "Sending probes…" : "Run placement test"}
        </Button>
      </form>
      {mailboxes.error && <Alert tone="error">Could not load mailboxes: {describeError(mailboxes.error)}</Alert>}
      {start.error && <Alert tone="error">The test did not start: {describeError(start.error)}</Alert>}
      {test.error && <Alert tone="error">Could not load the test: {describeError(test.error)}</Alert>}

      {test.data && <PlacementGrid test={test.data} />}
      <PlacementHistory selected={shown} onSelect={setSelected} />
    </section>
  );
}
