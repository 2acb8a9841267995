import { agentRoutes } from "../contracts/reply-agents";
import { createAgent, getAgent, listAgents, patchAgent } from "../../reply-agents/crud";
import { deleteDocument, listDocuments, uploadDocument } from "../../reply-agents/documents";
import { previewSearch } from "../../reply-agents/knowledge-preview";
import { getScan, indexPages, startScan } from "../../reply-agents/website";
import type { ToolDef } from "./kit";

/** Reply agents: the agents themselves, their documents, knowledge search and the website crawl. */
export const AGENT_TOOLS: ToolDef[] = [
  {
    name: "list_reply_agents",
    description: "The workspace's reply agents (name, mode, attached campaigns, document count, website).",
    route: agentRoutes.list,
    run: (ctx) => listAgents(ctx),
  },
  {
    name: "get_reply_agent",
    description: "One reply agent with its campaignIds, documentCount and website crawl state.",
    route: agentRoutes.get,
    ids: { agentId: "id" },
    run: (ctx, { params }) => getAgent(ctx, params.id),
  },
  {
    name: "create_reply_agent",
    description: "Create a reply agent: name, mode (how it answers), instructions; campaignIds attaches it to campaigns of this workspace.",
    route: agentRoutes.create,
    run: (ctx, { body }) => createAgent(ctx, body),
  },
  {
    name: "update_reply_agent",
    description: "Change a reply agent's fields; campaignIds replaces the attached campaigns.",
    route: agentRoutes.patch,
    ids: { agentId: "id" },
    run: (ctx, { params, body }) => patchAgent(ctx, params.id, body),
  },
  {
    name: "list_agent_documents",
    description: "The documents a reply agent was trained on (filename, type, size, passages, status), oldest first.",
    route: agentRoutes.documents,
    ids: { agentId: "id" },
    run: (ctx, { params }) => listDocuments(ctx, params.id),
  },
  {
    name: "upload_agent_document",
    description:
      "Train a reply agent on a document: filename and the file's bytes as base64 (PDF, DOCX, HTML, Markdown or text, up to 10 MB).",
    route: agentRoutes.upload,
    ids: { agentId: "id" },
    run: (ctx, { params, body }) => uploadDocument(ctx, params.id, body),
  },
  {
    name: "delete_agent_document",
    description: "Remove a document and its passages from a reply agent's knowledge.",
    route: agentRoutes.deleteDocument,
    ids: { agentId: "id", docId: "docId" },
    run: (ctx, { params }) => deleteDocument(ctx, params.id, params.docId),
  },
  {
    name: "search_agent_knowledge",
    description: "The passages of a reply agent's knowledge that best answer a query (what the agent would draw on).",
    route: agentRoutes.search,
    ids: { agentId: "id" },
    run: (ctx, { params, body }) => previewSearch(ctx, params.id, body),
  },
  {
    name: "scan_agent_website",
    description:
      "Start crawling a website for a reply agent (url; robots.txt is obeyed). Poll get_agent_website_scan for progress, then index_agent_website.",
    route: agentRoutes.scan,
    ids: { agentId: "id" },
    run: (ctx, { params, body }) => startScan(ctx, params.id, body),
  },
  {
    name: "get_agent_website_scan",
    description: "The latest website crawl of a reply agent: status, pages found and fetched, each page's url, title and status.",
    route: agentRoutes.scanProgress,
    ids: { agentId: "id" },
    run: (ctx, { params }) => getScan(ctx, params.id),
  },
  {
    name: "index_agent_website",
    description: "Add fetched pages of the latest crawl to the agent's knowledge (all of them when urls is omitted).",
    route: agentRoutes.index,
    ids: { agentId: "id" },
    run: (ctx, { params, body }) => indexPages(ctx, params.id, body),
  },
];
