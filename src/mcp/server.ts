// One MCP server per request (the endpoint is stateless): the tools, bound to the caller's
// Principal, and instructions that tell an agent where to start.
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools, type RegisterOptions } from './tool-kit';
import { MCP_TOOLS } from './tools';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

const INSTRUCTIONS = [
  'eventdeck stores events (logs, traces, LLM calls) and metrics, queried with APL (Kusto-like) and MPL.',
  'Start with listDatasets. For an events dataset call getDatasetSchema, then queryApl (check queries with validateApl, look up operators with aplReference).',
  'For a metrics dataset call listMetrics, listMetricTags and getMetricTagValues, then queryMetrics.',
  'checkMonitors shows what is alerting; getSavedQueries lists queries the team saved.',
  'For LLM costs: searchModels, getModelPrice and estimateLlmCost read the model catalog; getLlmUsage sums calls, tokens and cost of a dataset.',
  'Results are capped: aggregate with summarize rather than reading many raw events.',
].join('\n');

export function createMcpServer(options: RegisterOptions): McpServer {
  const server = new McpServer({ name: manifest.name, version: manifest.version }, { instructions: INSTRUCTIONS, capabilities: { tools: {} } });
  registerTools(server, MCP_TOOLS, options);
  return server;
}
