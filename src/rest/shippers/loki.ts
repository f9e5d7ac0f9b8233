// The Loki door: POST /loki/api/v1/push, as Promtail, Grafana Agent and Loki clients send it, with
// `Authorization: Bearer` (or Basic with the token as password, which Loki clients can set) and the
// dataset in `X-Axiom-Dataset`. Answers 204 as Loki does; errors are plain text, as Loki's are.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenFromAuthorization } from '../../auth/schemes';
import { describeError } from '../../errors';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import { headerReader } from '../shared/headers';
import { describeFrameworkError } from '../shared/error-handler';
import { readIngestBodies, takeEncodedBody } from '../shared/ingest-scope';
import type { ServicesOf } from '../shared/plugin-options';

function sendText(request: FastifyRequest, reply: FastifyReply, error: FastifyError) {
  const framework = describeFrameworkError(error);
  const description = framework ? undefined : describeError(error);
  if (description && !description.expected) request.log.error({ err: error }, 'unhandled error');
  const status = framework?.status ?? description!.status;
  const message = framework?.message ?? description!.message;
  return reply.status(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

export async function lokiRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config' | 'ingest' | 'shippers'>) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendText(request, reply, error));
  app.addHook('onRequest', async (request) => {
    const header = headerReader(request);
    const token = tokenFromAuthorization(header('authorization'), ['bearer', 'basic']);
    request.principal = await services.auth.authenticateToken(token, header('x-axiom-org-id'));
  });
  readIngestBodies(app, services);

  app.post(
    '/loki/api/v1/push',
    { bodyLimit: MAX_BODY_BYTES, schema: { tags: ['loki'], summary: 'Loki push (protobuf with snappy, or JSON); the dataset comes from X-Axiom-Dataset' } },
    async (request, reply) => {
      const outcome = await services.shippers.lokiPush(request.principal, headerReader(request)('x-axiom-dataset'), takeEncodedBody(request));
      const failure = outcome.failures[0];
      if (!failure) return reply.status(204).send();
      // As Loki does for entries it refuses: 400 naming them, the others kept.
      const message = `${outcome.failures.length} of ${outcome.failures.length + outcome.status.ingested} entries were not stored; entry ${failure.index}: ${failure.error}`;
      return reply.status(400).type('text/plain; charset=utf-8').send(`${message}\n`);
    },
  );
}
