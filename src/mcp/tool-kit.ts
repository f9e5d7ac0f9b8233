// What every MCP tool is made of: a name, a description an agent can act on, zod schemas of its
// input and output, and a function over our services with the caller's Principal. Tools return
// their structured answer and a compact text copy; `register` turns each into an SDK tool that
// is read-only, rate limited per token, and answers bad input with a tool error carrying the
// message a person would need (never a protocol error or a crashed session).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Principal } from '../auth/principal';
import { describeError } from '../errors';
import type { Services } from '../services';
import type { InFlightCalls } from './in-flight';
import type { ToolCallLimiter } from './rate-limit';

/** The services tools call. */
export type McpServices = Pick<
  Services,
  'config' | 'logger' | 'datasets' | 'virtualFields' | 'queries' | 'starredQueries' | 'monitoring' | 'metrics' | 'catalog' | 'llmUsage'
>;

export interface ToolContext {
  principal: Principal;
  services: McpServices;
  /** Aborted when the caller goes away or cancels: queries stop with it. */
  signal: AbortSignal;
}

export interface ToolAnswer<Out> {
  structured: Out;
  /** The compact copy for clients that read only text (CSV for rows). */
  text: string;
}

export interface ToolDefinition<In extends z.ZodRawShape, Out extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: In;
  output: Out;
  run(args: z.infer<z.ZodObject<In>>, context: ToolContext): Promise<ToolAnswer<z.infer<z.ZodObject<Out>>>>;
}

/** Declares a tool, its `run` typed by its schemas. */
export function defineTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(definition: ToolDefinition<In, Out>): ToolDefinition<In, Out> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

export interface RegisterOptions {
  principal: Principal;
  services: McpServices;
  limiter: ToolCallLimiter;
  /** Where calls are found by a later `notifications/cancelled`. */
  inFlight: InFlightCalls;
  /** Aborted when the HTTP request's connection closes before its answer. */
  connectionSignal: AbortSignal;
  logger: Logger;
}

const toolError = (message: string) => ({ content: [{ type: 'text' as const, text: message }], isError: true });

export function registerTools(server: McpServer, tools: readonly AnyTool[], options: RegisterOptions) {
  const { principal, services, limiter, inFlight, connectionSignal, logger } = options;
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async (args: unknown, extra: { signal: AbortSignal; requestId: string | number }) => {
        const wait = limiter.take(principal.tokenId);
        if (wait > 0) {
          return toolError(
            `rate limited: this token may make ${services.config.mcp.toolCallsPerMinute} tool calls a minute; try again in ${Math.ceil(wait / 1000)} s`,
          );
        }
        const call = inFlight.track(principal.tokenId, extra.requestId);
        const signal = AbortSignal.any([connectionSignal, extra.signal, call.signal]);
        try {
          const answer = await tool.run(args as Record<string, unknown>, { principal, services, signal });
          return { structuredContent: answer.structured, content: [{ type: 'text' as const, text: answer.text }] };
        } catch (error) {
          const description = describeError(error);
          if (!description.expected) {
            logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
            return toolError(`${tool.name} failed on the server; the error is logged`);
          }
          return toolError(description.message);
        } finally {
          call.done();
        }
      },
    );
  }
}
