"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { refreshAgents, uploadDocument, useDocuments } from "./queries";

const MAX_BYTES = 10 * 1024 * 1024;

function size(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} kB`;
}

/** Trained documents: upload (PDF, DOCX, TXT ≤ 10 MB) with a progress bar per file, and removal. */
export function DocumentsPanel({ agentId }: { agentId: string }) {
  const qc = useQueryClient();
  const docs = useDocuments(agentId);
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<{ name: string; progress: number; error?: string }[]>([]);

  async function onFiles(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      const patch = (p: Partial<{ progress: number; error: string }>) =>
        setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, ...p } : x)));
      setUploads((u) => [...u.filter((x) => x.name !== file.name), { name: file.name, progress: 0 }]);
      if (file.size > MAX_BYTES) {
        patch({ error: `${file.name} is ${size(file.size)}; the limit is 10 MB` });
        continue;
      }
      try {
        await uploadDocument(agentId, file, (f) => patch({ progress: Math.round(f * 100) }));
        setUploads((u) => u.filter((x) => x.name !== file.name));
      } catch (e) {
        patch({ error: `${file.name}: ${describeError(e)}` });
      }
    }
    if (input.current) input.current.value = "";
    await refreshAgents(qc);
  }

  async function remove(docId: string) {
    await data(client.DELETE("/reply-agents/{id}/documents/{docId}", { params: { path: { id: agentId, docId } } }));
    await refreshAgents(qc);
  }

  return (
    <section className="space-y-3" aria-label="Documents">
      <h2 className="text-base font-semibold text-gray-900">Documents</h2>
      <p className="text-sm text-gray-600">PDF, DOCX or TXT, up to 10 MB each. Their text is split into passages the agent answers from.</p>
      <label className="inline-flex cursor-pointer items-center gap-2 text-sm">
        <span className="sr-only">Upload documents</span>
        <input
          ref={input}
          type="file"
          multiple
          accept=".pdf,.docx,.txt,application/pdf,text/plain,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          onChange={(e) => onFiles(e.target.files)}
          data-testid="document-input"
        />
      </label>
      {uploads.map((u) =>
        u.error ? (
          <Alert key={u.name} tone="error">
            {u.error}
          </Alert>
        ) : (
          <Progress key={u.name} value={u.progress} max={100} label={`% of ${u.name} uploaded`} />
        ),
      )}
      {docs.error && <Alert tone="error">Could not load documents: {describeError(docs.error)}</Alert>}
      <ul className="divide-y divide-gray-100 rounded-md border border-gray-200" aria-label="Trained documents">
        {(docs.data ?? []).map((d) => (
          <li key={d.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
            <span>
              <span className="font-medium text-gray-900">{d.filename}</span>
              <span className="ml-2 text-xs text-gray-500">
                {size(d.size)} · {d.chunks} passages
              </span>
            </span>
            <Button variant="ghost" size="sm" onClick={() => remove(d.id)} aria-label={`Remove ${d.filename}`}>
              Remove
            </Button>
          </li>
        ))}
        {docs.data?.length === 0 && <li className="px-3 py-2 text-sm text-gray-500">No documents yet.</li>}
      </ul>
    </section>
  );
}
