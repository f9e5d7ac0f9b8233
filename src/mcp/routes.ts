// The MCP endpoint for AI agents: Model Context Protocol over Streamable HTTP at POST /mcp,
// stateless (a fresh server and transport per request, JSON answers, no stream, so GET and
// DELETE answer 405). Authentication is a bearer token (API or personal), the organization
// from `X-Axiom-Org-Id` or `?org-id=`; every tool acts as that Principal, so dataset
// capabilities apply unchanged. A browser `Origin` other than the server's own (or one
// MCP_ALLOWED_ORIGINS names) is refused with 403, against DNS rebinding. No OAuth metadata is
// served: only bearer tokens are accepted, and clients that find such metadata may ignore the
// header they were configured with. The protocol's SDK and the tools are loaded by the first
// request, so a server nobody calls through MCP does not hold them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { credentialsFrom } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import { describeError, timedOut } from '../errors';
import { describeFrameworkError } from '../rest/shared/error-handler';
import { headerReader } from '../rest/shared/headers';
import type { ServicesOf } from '../rest/shared/plugin-options';
import { InFlightCalls } from './in-flight';
import { ToolCallLimiter } from './rate-limit';
import type { McpServices } from './tool-kit';

let protocolModules: Promise<[typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('./server')]> | undefined;
const loadProtocol = () => (protocolModules ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./server')]));

export const MCP_PATH = '/mcp';

/** JSON-RPC error codes: parse error, and the server-defined range for transport refusals. */
const PARSE_ERROR = -32700;
const REFUSED = -32001;

function sendRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** The origins a browser may call from: the server's own (as the request reached it), PUBLIC_URL's, and configured ones. */
function originAllowed(request: FastifyRequest, services: McpServices): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const own = request.headers.host ? `${request.protocol}://${request.headers.host}` : undefined;
  const allowed = [own, new URL(services.config.publicUrl).origin, ...services.config.mcp.allowedOrigins];
  return allowed.includes(origin.replace(/\/+$/, ''));
}

async function principalOf(request: FastifyRequest, services: ServicesOf<'auth'>['services']): Promise<Principal> {
  const credentials = credentialsFrom(headerReader(request));
  const query = request.query as Record<string, unknown> | undefined;
  const orgFromQuery = typeof query?.['org-id'] === 'string' && query['org-id'] !== '' ? query['org-id'] : undefined;
  const identity = await services.auth.identify({ authorization: credentials.authorization, orgId: credentials.orgId ?? orgFromQuery });
  return services.auth.authenticator.principalOf(identity);
}

/** Aborted when the response closes before it was sent: the caller went away, its queries stop. */
function callerGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(timedOut('the tool call was cancelled because its caller went away'));
  });
  return controller.signal;
}

export async function mcpRoutes(app: FastifyInstance, { services }: ServicesOf<McpServicesNeeded>) {
  const limiter = new ToolCallLimiter(services.config.mcp.toolCallsPerMinute);
  const inFlight = new InFlightCalls();

  // Failures before the handler (bad JSON, wrong media type, a body too large) answer in JSON-RPC.
  app.setErrorHandler((error, _request, reply) => {
    const framework = describeFrameworkError(error as Parameters<typeof describeFrameworkError>[0]);
    if (framework) return sendRpcError(reply, framework.status, framework.status === 400 ? PARSE_ERROR : REFUSED, framework.message);
    const description = describeError(error);
    if (!description.expected) services.logger.error({ err: error }, 'MCP request failed');
    return sendRpcError(reply, description.status, REFUSED, description.message);
  });

  const noStream = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('allow', 'POST').status(405).send({ jsonrpc: '2.0', error: { code: REFUSED, message: 'this endpoint is stateless: send requests with POST; it opens no stream' }, id: null });
  app.get(MCP_PATH, { schema: { hide: true } }, noStream);
  app.delete(MCP_PATH, { schema: { hide: true } }, noStream);

  app.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!originAllowed(request, services)) return sendRpcError(reply, 403, REFUSED, `origin ${request.headers.origin} is not allowed`);
    let principal: Principal;
    try {
      principal = await principalOf(request, services);
    } catch (error) {
      const description = describeError(error);
      if (description.status === 401) {
        const tokenSent = request.headers.authorization !== undefined;
        reply.header('www-authenticate', tokenSent ? 'Bearer realm="eventdeck", error="invalid_token"' : 'Bearer realm="eventdeck"');
      }
      if (!description.expected) throw error;
      return sendRpcError(reply, description.status, REFUSED, description.message);
    }

    for (const requestId of InFlightCalls.cancelledIn(request.body)) inFlight.cancel(principal.tokenId, requestId);
    const connectionSignal = callerGone(reply);
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadProtocol();
    const server = createMcpServer({ principal, services, limiter, inFlight, connectionSignal, logger: services.logger });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      services.logger.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal server error' }, id: null }));
      }
    }
  });
}

type McpServicesNeeded = 'auth' | keyof McpServices;
