import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DELETE, GET, POST } from "../app/api/mcp/route";

/** The MCP SDK's own client, its HTTP requests answered in-process by the /api/mcp route handler. */
export async function connectMcp(key?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : undefined,
    fetch: async (url, init) => {
      const req = new Request(url, init);
      if (req.method === "GET") return GET();
      if (req.method === "DELETE") return DELETE();
      return POST(req);
    },
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

/** One tools/call: the text the model reads, and its JSON when the call succeeded. */
export async function callMcpTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  const text = r.content[0]?.text ?? "";
  const json: any = r.isError ? undefined : JSON.parse(text);
  return { isError: r.isError === true, text, json };
}
