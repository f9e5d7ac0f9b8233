// The OpenTelemetry door: OTLP/HTTP `POST /v1/traces` and `POST /v1/logs`, as the OTel SDK
// exporters and the Collector send them (protobuf or JSON, gzip or zstd), with
// `Authorization: Bearer` and the dataset in `X-Axiom-Dataset`; `POST /v1/metrics` (protobuf only,
// as Axiom) into the metrics dataset in `X-Axiom-Metrics-Dataset`. Answers follow the OTLP/HTTP
// specification: the Export*ServiceResponse in the request's encoding (partial success included),
// and errors as google.rpc.Status in that encoding.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../../errors';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import { encodeErrorStatus, encodeExportResponse, type OtlpEncoding, otlpEncodingOf, type OtlpSignal } from '../../shippers/otlp/codec';
import { headerReader } from '../shared/headers';
import { describeFrameworkError } from '../shared/error-handler';
import { readIngestBodies, takeEncodedBody } from '../shared/ingest-scope';
import type { ServicesOf } from '../shared/plugin-options';

const CONTENT_TYPE: Record<OtlpEncoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

/** The encoding to answer in: the request's, or JSON when it has none we read. */
function answerEncoding(request: FastifyRequest): OtlpEncoding {
  try {
    return otlpEncodingOf(headerReader(request)('content-type'));
  } catch {
    return 'json';
  }
}

function sendStatus(request: FastifyRequest, reply: FastifyReply, error: FastifyError) {
  const framework = describeFrameworkError(error);
  const description = framework ? undefined : describeError(error);
  if (description && !description.expected) request.log.error({ err: error }, 'unhandled error');
  const status = framework?.status ?? description!.status;
  const message = description && !description.expected ? 'internal server error' : (framework?.message ?? description!.message);
  const encoding = answerEncoding(request);
  return reply.status(status).type(CONTENT_TYPE[encoding]).send(encodeErrorStatus(encoding, status, message));
}

export async function otlpRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config' | 'ingest' | 'metrics' | 'shippers'>) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendStatus(request, reply, error));
  app.addHook('onRequest', async (request) => {
    const header = headerReader(request);
    request.principal = await services.auth.authenticate({ authorization: header('authorization'), orgId: header('x-axiom-org-id') });
  });
  readIngestBodies(app, services);

  const route = (signal: Exclude<OtlpSignal, 'metrics'>, summary: string) =>
    app.post(
      `/v1/${signal}`,
      { bodyLimit: MAX_BODY_BYTES, schema: { tags: ['opentelemetry'], summary } },
      async (request, reply) => {
        const header = headerReader(request);
        const encoding = otlpEncodingOf(header('content-type'));
        const partial = await services.shippers.otlpExport(signal, request.principal, header('x-axiom-dataset'), takeEncodedBody(request), encoding);
        return reply.type(CONTENT_TYPE[encoding]).send(encodeExportResponse(signal, encoding, partial));
      },
    );
  route('traces', 'OTLP/HTTP trace export (protobuf or JSON; gzip or zstd); the dataset comes from X-Axiom-Dataset');
  route('logs', 'OTLP/HTTP log export (protobuf or JSON; gzip or zstd); the dataset comes from X-Axiom-Dataset');

  app.post(
    '/v1/metrics',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: { tags: ['opentelemetry'], summary: 'OTLP/HTTP metrics export (protobuf; gzip or zstd) into the metrics dataset named by X-Axiom-Metrics-Dataset' },
    },
    async (request, reply) => {
      const header = headerReader(request);
      const encoding = otlpEncodingOf(header('content-type'));
      const dataset = header('x-axiom-metrics-dataset') || header('x-axiom-dataset');
      const partial = await services.metrics.otlpExport(request.principal, dataset, takeEncodedBody(request), encoding);
      return reply.type(CONTENT_TYPE[encoding]).send(encodeExportResponse('metrics', encoding, partial));
    },
  );
}
