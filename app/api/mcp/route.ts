import { handleMcp } from "@/lib/api/mcp/server";

/** MCP over Streamable HTTP, stateless (docs/mcp.md): every JSON-RPC message is a POST. */
export const POST = (req: Request) => handleMcp(req);

/** Stateless: no server-to-client stream to open (GET) and no session to end (DELETE). */
function notAllowed(): Response {
  const body = {
    jsonrpc: "2.0",
    error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST JSON-RPC messages" },
    id: null,
  };
  return Response.json(body, { status: 405, headers: { Allow: "POST" } });
}
export const GET = notAllowed;
export const DELETE = notAllowed;
