"use client";

import { useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Textarea } from "@/components/ui/textarea";
import { BlacklistResults } from "./blacklist-results";
import { type BlacklistJob, type CheckBody, useBlacklistJob, useStartCheck } from "./queries";

/** "a.com, 1.2.3.4\nb.com" → domains and IPs (anything with a colon or only digits and dots is an address). */
function parseTargets(text: string): CheckBody {
  const items = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const isIp = (s: string) => /^[\d.]+$/.test(s) || s.includes(":");
  const domains = items.filter((s) => !isIp(s));
  const ips = items.filter(isIp);
  return { ...(domains.length ? { domains } : {}), ...(ips.length ? { ips } : {}) };
}

/** The API's per-item messages ("domains.1") as lines a person can act on. */
function fieldMessages(e: unknown, body: CheckBody | undefined): string[] {
  if (!(e instanceof ApiError)) return [];
  return Object.entries(e.fieldErrors).map(([path, msgs]) => {
    const [list, index] = path.split(".") as [keyof CheckBody, string | undefined];
    const value = index !== undefined ? body?.[list]?.[Number(index)] : undefined;
    return `${value ?? path}: ${msgs.join(", ")}`;
  });
}

const STATUS_TONE = { QUEUED: "gray", RUNNING: "blue", COMPLETED: "green", FAILED: "red", CANCELLED: "gray" } as const;

function JobStatus({ job }: { job: BlacklistJob }) {
  const running = job.status === "QUEUED" || job.status === "RUNNING";
  return (
    <div className="space-y-2" data-testid="blacklist-job">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={STATUS_TONE[job.status]}>{job.status}</Badge>
        <span data-testid="blacklist-summary">
          {job.targets} target{job.targets === 1 ? "" : "s"} · {job.listedCount} listing{job.listedCount === 1 ? "" : "s"}
          {job.failedCount > 0 && ` · ${job.failedCount} without an answer`}
        </span>
      </div>
      {running && <Progress value={job.done} max={job.total} label="look-ups" />}
      {job.error && <Alert tone="error">{job.error}</Alert>}
    </div>
  );
}

/**
 * Blacklist check: domains and IPs (or, left empty, every sending domain and the addresses its A and
 * MX records point to) against the configured blocklists. The job runs in the background; its progress
 * bar and results follow it.
 */
export function BlacklistPanel() {
  const [text, setText] = useState("");
  const [sent, setSent] = useState<CheckBody>();
  const [jobId, setJobId] = useState<string>();
  const start = useStartCheck(setJobId);
  const job = useBlacklistJob(jobId);
  const problems = fieldMessages(start.error, sent);
  return (
    <section className="space-y-4 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby="blacklist-heading">
      <div>
        <h2 id="blacklist-heading" className="text-base font-semibold text-gray-900">
          Blacklist check
        </h2>
        <p className="text-sm text-gray-600">
          Looks domains up in the domain blocklists and addresses in the IP blocklists. A listed sending domain or address raises an alert.
        </p>
      </div>
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          const body = parseTargets(text);
          setSent(body);
          start.mutate(body);
        }}
      >
        <Field label="Domains and IP addresses" hint="One per line or comma-separated. Leave empty to check all your sending domains.">
          <Textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder={"example.com\n192.0.2.10"} />
        </Field>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? "Starting…" : "Run blacklist check"}
        </Button>
      </form>
      {start.error && (
        <Alert tone="error">
          The check did not start: {problems.length ? "" : describeError(start.error)}
          {problems.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {job.error && <Alert tone="error">Could not load the check: {describeError(job.error)}</Alert>}
      {job.data && <JobStatus job={job.data} />}
      {job.data && <BlacklistResults job={job.data} />}
    </section>
  );
}
