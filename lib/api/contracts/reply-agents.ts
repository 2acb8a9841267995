import { defineRoute } from "../route";
import { deletedSchema } from "./responses";
import {
  agentListSchema,
  agentSchema,
  createAgentBody,
  documentListSchema,
  documentSchema,
  indexBody,
  indexResultSchema,
  patchAgentBody,
  scanBody,
  scanSchema,
  searchBody,
  searchResultSchema,
  uploadDocumentBody,
} from "../../reply-agents/schemas";

const tag = "Reply agents";

/** Base64 of a 10 MB document is ~14 MB: the upload route reads up to 15 MB (the default is 5 MB). */
const DOCUMENT_BODY_LIMIT = 15 * 1024 * 1024;

/** Reply agents: their settings, knowledge and search. */
export const agentRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/reply-agents",
    tag,
    access: "read",
    summary: "The workspace's reply agents",
    response: { description: "`{ agents }`", schema: agentListSchema },
  }),
  create: defineRoute({
    method: "POST",
    path: "/reply-agents",
    tag,
    access: "write",
    body: createAgentBody,
    errors: [404],
    summary: "Create an agent (2.10 fields); `campaignIds` attaches it to campaigns of the workspace (404 for any other id)",
    response: { status: 201, description: "The agent", schema: agentSchema },
  }),
  get: defineRoute({
    method: "GET",
    path: "/reply-agents/{id}",
    tag,
    access: "read",
    summary: "One agent with `campaignIds`, `documentCount` and `website`",
    response: { description: "The agent", schema: agentSchema },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/reply-agents/{id}",
    tag,
    access: "write",
    body: patchAgentBody,
    summary: "Update fields; `campaignIds` replaces the attached campaigns (a campaign attached elsewhere moves to this agent)",
    response: { description: "The agent", schema: agentSchema },
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/reply-agents/{id}",
    tag,
    access: "write",
    summary: "Delete an agent with its documents, knowledge and crawls",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
  documents: defineRoute({
    method: "GET",
    path: "/reply-agents/{id}/documents",
    tag,
    access: "read",
    summary: "Trained documents, oldest first",
    response: { description: "`{ documents }`", schema: documentListSchema },
  }),
  upload: defineRoute({
    method: "POST",
    path: "/reply-agents/{id}/documents",
    tag,
    access: "write",
    body: uploadDocumentBody,
    bodyLimit: DOCUMENT_BODY_LIMIT,
    errors: [413],
    summary:
      "Train on a PDF, DOCX or TXT document (≤ 10 MB decoded): its text is chunked into the knowledge. Another type: 400; larger: 413",
    response: { status: 201, description: "`{ id, filename, mimeType, size, chunks, status }`", schema: documentSchema },
  }),
  deleteDocument: defineRoute({
    method: "DELETE",
    path: "/reply-agents/{id}/documents/{docId}",
    tag,
    access: "write",
    summary: "Remove a document and its passages from the knowledge",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
  search: defineRoute({
    method: "POST",
    path: "/reply-agents/{id}/search",
    tag,
    access: "write",
    body: searchBody,
    summary: "Preview retrieval: the passages that best answer `query` (full-text, fused with embeddings when configured)",
    response: { description: "`{ results: [{ source, title, snippet, score }] }`", schema: searchResultSchema },
  }),
  scan: defineRoute({
    method: "POST",
    path: "/reply-agents/{id}/website/scan",
    tag,
    access: "write",
    body: scanBody,
    summary:
      "Start a background crawl from `url` (same site, robots.txt honoured, `maxPages` ≤ 200, default 50); a URL the SSRF guard refuses: 400 on `url`",
    response: { status: 202, description: "The crawl job", schema: scanSchema },
  }),
  scanProgress: defineRoute({
    method: "GET",
    path: "/reply-agents/{id}/website/scan",
    tag,
    access: "read",
    summary: "The latest crawl: `{ status, pagesFound, pagesFetched, pages: [{ url, title, status }] }`",
    response: { description: "The crawl", schema: scanSchema },
  }),
  index: defineRoute({
    method: "POST",
    path: "/reply-agents/{id}/website/index",
    tag,
    access: "write",
    body: indexBody,
    bodyOptional: true,
    summary: "Add fetched pages of the latest crawl to the knowledge (all when `urls` is omitted)",
    response: { description: "`{ indexed, chunks, skipped }`", schema: indexResultSchema },
  }),
};
