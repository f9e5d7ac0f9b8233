// MCP clients for tests: the SDK's own Client over its Streamable HTTP transport, against a test
// server's /mcp with a bearer token; and the structured answer of a tool call.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServer } from './server';

export async function mcpClient(server: TestServer, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'eventdeck-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome {
  isError: boolean;
  text: string;
  structured: any;
}

/** Calls a tool; the structured answer, the text copy and whether it was a tool error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };
  return {
    isError: result.isError === true,
    text: result.content.filter((part) => part.type === 'text').map((part) => part.text).join('\n'),
    structured: result.structuredContent,
  };
}

/** A raw JSON-RPC POST to /mcp, as a client outside the SDK would send it. */
export function postMcp(server: TestServer, body: string, headers: Record<string, string> = {}, token: string | false = server.adminToken, signal?: AbortSignal) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body,
  });
}
