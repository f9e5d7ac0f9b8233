// Splunk HTTP Event Collector, at the root as Splunk serves it: `/services/collector/event` (and
// its alias `/services/collector`), `/services/collector/raw`, and the health checks, which need
// no token. The token comes as `Splunk <token>`, `Bearer <token>` or Basic with the token as
// password. Every answer, errors included, is HEC's `{"text": ..., "code": ...}`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenFromAuthorization } from '../../auth/schemes';
import { describeError, DomainError } from '../../errors';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import { HEC_CODES } from '../../shippers/hec';
import { headerReader } from '../shared/headers';
import { describeFrameworkError } from '../shared/error-handler';
import { readIngestBodies, takeEncodedBody } from '../shared/ingest-scope';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['hec'];

/** HEC's code for an error that carries none, from its HTTP status. */
function codeOfStatus(status: number): number {
  if (status === 401) return HEC_CODES.invalidAuthorization.code;
  if (status === 403) return HEC_CODES.invalidToken.code;
  if (status === 404) return HEC_CODES.incorrectIndex.code;
  if (status === 503) return HEC_CODES.serverBusy.code;
  if (status >= 500) return HEC_CODES.internalError.code;
  return HEC_CODES.invalidDataFormat.code;
}

function sendHecError(request: FastifyRequest, reply: FastifyReply, error: FastifyError) {
  const framework = describeFrameworkError(error);
  if (framework) return reply.status(framework.status).send({ text: framework.message, code: codeOfStatus(framework.status) });
  const description = describeError(error);
  if (!description.expected) {
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(HEC_CODES.internalError);
  }
  const { hecCode, ...extra } = description.details ?? {};
  const code = typeof hecCode === 'number' ? hecCode : codeOfStatus(description.status);
  return reply.status(description.status).send({ text: description.message, code, ...extra });
}

interface RawQuery {
  index?: string;
  host?: string;
  source?: string;
  sourcetype?: string;
  channel?: string;
}

const eventQuerystring = {
  type: 'object',
  properties: { index: { type: 'string', description: 'Dataset to ingest into (overrides the envelopes\' index)' } },
} as const;

const rawQuerystring = {
  type: 'object',
  properties: {
    index: { type: 'string', description: 'Dataset to ingest into' },
    host: { type: 'string', description: 'host field of every event' },
    source: { type: 'string', description: 'source field of every event' },
    sourcetype: { type: 'string', description: 'sourcetype field of every event' },
  },
} as const;

export async function hecRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config' | 'ingest' | 'shippers'>) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendHecError(request, reply, error));

  const health = { schema: { tags, summary: 'HEC health (no token needed)' } };
  app.get('/services/collector/health', health, async () => HEC_CODES.healthy);
  app.get('/services/collector/health/1.0', health, async () => HEC_CODES.healthy);

  await app.register(async (ingestScope) => {
    ingestScope.addHook('onRequest', async (request) => {
      const authorization = headerReader(request)('authorization');
      if (!authorization) throw new DomainError('unauthenticated', HEC_CODES.tokenRequired.text, { hecCode: HEC_CODES.tokenRequired.code });
      let token: string;
      try {
        token = tokenFromAuthorization(authorization, ['splunk', 'bearer', 'basic']);
      } catch {
        throw new DomainError('unauthenticated', HEC_CODES.invalidAuthorization.text, { hecCode: HEC_CODES.invalidAuthorization.code });
      }
      try {
        request.principal = await services.auth.authenticateToken(token, headerReader(request)('x-axiom-org-id'));
      } catch (error) {
        if (error instanceof DomainError) throw new DomainError('forbidden', HEC_CODES.invalidToken.text, { hecCode: HEC_CODES.invalidToken.code });
        throw error;
      }
    });
    readIngestBodies(ingestScope, services);

    const answer = (reply: FastifyReply, outcome: { failures: { index: number; error: string }[] }) => {
      const failure = outcome.failures[0];
      if (!failure) return HEC_CODES.success;
      // As Splunk does for an event it cannot index: the others are kept, the first bad one named.
      return reply.status(400).send({ ...HEC_CODES.invalidDataFormat, 'invalid-event-number': failure.index, reason: failure.error });
    };

    const events = { bodyLimit: MAX_BODY_BYTES, schema: { tags, summary: 'Ingest HEC event envelopes', querystring: eventQuerystring } };
    for (const path of ['/services/collector/event', '/services/collector/event/1.0', '/services/collector']) {
      ingestScope.post<{ Querystring: { index?: string } }>(path, events, async (request, reply) =>
        answer(reply, await services.shippers.hecEvents(request.principal, takeEncodedBody(request), request.query.index)),
      );
    }

    const raw = { bodyLimit: MAX_BODY_BYTES, schema: { tags, summary: 'Ingest raw text, one event per line', querystring: rawQuerystring } };
    for (const path of ['/services/collector/raw', '/services/collector/raw/1.0']) {
      ingestScope.post<{ Querystring: RawQuery }>(path, raw, async (request, reply) => {
        const { index, host, source, sourcetype } = request.query;
        const metadata = Object.fromEntries(Object.entries({ host, source, sourcetype, index }).filter(([, value]) => value));
        return answer(reply, await services.shippers.hecRaw(request.principal, takeEncodedBody(request), metadata));
      });
    }
  });
}
