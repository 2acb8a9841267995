"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { ApiError, client, data, plainPage } from "@/components/api-client";
import type { BodyOf, ResponseOf } from "@/lib/client";

/** The answers' types, from the client generated from the OpenAPI document: a contract change is a type error here. */
export type Agent = ResponseOf<"/reply-agents/{id}", "get">;
export type Tone = Agent["tone"];
export const TONES: Tone[] = ["PROFESSIONAL", "FRIENDLY", "CASUAL", "FORMAL"];
export type AgentDocument = ResponseOf<"/reply-agents/{id}/documents", "get">["documents"][number];
export type Scan = ResponseOf<"/reply-agents/{id}/website/scan", "get">;
export type SearchResult = ResponseOf<"/reply-agents/{id}/search", "post">["results"][number];
type UploadBody = BodyOf<"/reply-agents/{id}/documents", "post">;
type Uploaded = ResponseOf<"/reply-agents/{id}/documents", "post">;

export const AGENTS_KEY = ["reply-agents"] as const;

/** The path parameters of /reply-agents/{id}/…. */
export const agentParams = (id: string) => ({ path: { id } });

export function useAgents() {
  return useQuery({
    queryKey: [...AGENTS_KEY, "list"],
    queryFn: ({ signal }) => data(client.GET("/reply-agents", { signal })).then((r) => r.agents),
  });
}

export function useAgent(id: string) {
  return useQuery({
    queryKey: [...AGENTS_KEY, "one", id],
    queryFn: ({ signal }) => data(client.GET("/reply-agents/{id}", { params: agentParams(id), signal })),
  });
}

export function useDocuments(id: string) {
  return useQuery({
    queryKey: [...AGENTS_KEY, "documents", id],
    queryFn: ({ signal }) => data(client.GET("/reply-agents/{id}/documents", { params: agentParams(id), signal })).then((r) => r.documents),
  });
}

export function useScan(id: string) {
  return useQuery({
    queryKey: [...AGENTS_KEY, "scan", id],
    queryFn: ({ signal }) => data(client.GET("/reply-agents/{id}/website/scan", { params: agentParams(id), signal })),
    // A crawl in progress is looked at every 2 s for its progress bar.
    refetchInterval: (q) => (q.state.data?.status === "QUEUED" || q.state.data?.status === "RUNNING" ? 2_000 : false),
  });
}

/** The workspace's campaigns to attach (a plain-array list). */
export function useCampaignOptions() {
  return useQuery({
    queryKey: ["campaigns", "agent-options"],
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: { limit: 500 } }, signal })).then((p) => p.rows),
  });
}

export function refreshAgents(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: AGENTS_KEY });
}

/**
 * Uploads a document with XMLHttpRequest, not the typed client: fetch (and so openapi-fetch) has no
 * upload progress. The body and answer are still the contract's types (BodyOf/ResponseOf), so a
 * contract change is a type error here too. `onProgress` gets 0–1 as the body goes out. Resolves with
 * the document, rejects with the API's message.
 */
export function uploadDocument(id: string, file: File, onProgress: (f: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error(`Could not read ${file.name}`));
    reader.onload = () => {
      const base64 = String(reader.result).replace(/^data:[^,]*,/, "");
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/api/v1/reply-agents/${encodeURIComponent(id)}/documents`);
      xhr.setRequestHeader("content-type", "application/json");
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onerror = () => reject(new Error("Could not reach the server"));
      xhr.onload = () => {
        let body: { error?: string; code?: string } = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          /* not JSON */
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as Uploaded);
        else reject(new ApiError(body.error ?? `Upload failed with HTTP ${xhr.status}`, xhr.status, body.code ?? `HTTP_${xhr.status}`));
      };
      const upload: UploadBody = { filename: file.name, mimeType: mimeOf(file), contentBase64: base64 };
      xhr.send(JSON.stringify(upload));
    };
    reader.readAsDataURL(file);
  });
}

/** The browser's type, or one from the extension when it gives none (some systems leave .docx untyped). */
function mimeOf(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.split(".").pop()?.toLowerCase();
  if (ext === "pdf") return "application/pdf";
  if (ext === "docx") return "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  if (ext === "txt") return "text/plain";
  return "application/octet-stream";
}
